// test/claims/rule_cases/e8.cpp: the shipped run with one hit checkpoint committed twice or once, a seq lost, or a fault failing Flink twice.
// The predictions e8::not_run() lists (Connect, operator signals) have no
// case: their rule returns "not run" whatever the samples hold, so no sample
// can refute them. The held-past-timeout, held-no-timeout and outside-window
// cases mark the parameters as a run of the version that has those cells.
#include "../rule_cases.hpp"
#include <rosterrig/experiments/e8_catalog_commit_faults/e8_catalog_commit_faults.hpp>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace rosterrig::claims_test {
namespace {

// The first valid trial of a cell in a writer's run.
e8::trial& first_valid(e8::writer_run& r, e8::cell c) {
    for (auto& t : r.trials)
        if (t.kind == c && e8::validity_of(t).valid) return t;
    throw std::logic_error("e8 rule cases: no valid trial of " + e8::stem_of(c) + " for " + r.writer);
}

// The catalog lists a second snapshot carrying the first valid trial's
// checkpoint (a copy of the first, right after it); Trino reads its records twice.
void commit_hit_twice(e8::samples& s, const std::string& writer, e8::cell c) {
    auto& r = named(s.runs, writer, &e8::writer_run::writer);
    const auto checkpoint = e8::hit_checkpoint(first_valid(r, c));
    std::int64_t next_id = 0;
    for (const auto& x : r.snapshots) next_id = std::max(next_id, x.snapshot_id + 1);
    const auto it = std::find_if(r.snapshots.begin(), r.snapshots.end(),
                                 [&](const auto& x) { return x.watermark == checkpoint && check::adds_data(x); });
    if (it == r.snapshots.end()) throw std::logic_error("e8 rule cases: no snapshot of the hit checkpoint");
    auto copy = *it;
    copy.snapshot_id = next_id;
    r.rows += static_cast<std::uint64_t>(copy.added_records);
    r.duplicate_rows += static_cast<std::uint64_t>(copy.added_records);
    r.snapshots.insert(std::next(it), copy);
}

// The first valid zombie trial's checkpoint is committed once: its second
// snapshot is gone, and so are the duplicate rows it added.
// Removes the last snapshot that added data under `checkpoint`; returns the records it added (0: none).
std::int64_t erase_last_snapshot_of(e8::writer_run& r, std::int64_t checkpoint) {
    for (auto it = r.snapshots.rbegin(); it != r.snapshots.rend(); ++it)
        if (it->watermark == checkpoint && check::adds_data(*it)) {
            const auto added = it->added_records;
            r.snapshots.erase(std::next(it).base());
            return added;
        }
    return 0;
}

void commit_hit_once(e8::samples& s, const std::string& writer, e8::cell c) {
    auto& r = named(s.runs, writer, &e8::writer_run::writer);
    const auto added = static_cast<std::uint64_t>(erase_last_snapshot_of(r, e8::hit_checkpoint(first_valid(r, c))));
    r.rows -= added;
    r.duplicate_rows -= added;
}

// The first valid trial of a cell failed the Flink job twice, not once.
void fail_twice(e8::samples& s, const std::string& writer, e8::cell c) {
    auto& t = first_valid(named(s.runs, writer, &e8::writer_run::writer), c);
    t.exceptions_after += 1;
    t.new_exceptions.push_back("org.apache.iceberg.exceptions.CommitStateUnknownException: Service failed: 504");
}

// A writer's append run copied as its run on `table` with the commit's retry
// off (the catalog holding commit.retry.num-retries = 0 unless `retry_in_force`
// is false), its zombie-409 trials kept.
e8::writer_run& copy_with_retry_off(e8::samples& s, const std::string& writer, e8::table_variant table,
                                    bool retry_in_force = true) {
    auto copy = named(s.runs, writer, &e8::writer_run::writer);
    copy.on_table = table;
    copy.table_properties = std::map<std::string, std::string>{};
    if (retry_in_force) (*copy.table_properties)["commit.retry.num-retries"] = "0";
    std::erase_if(copy.trials, [](const e8::trial& t) { return t.kind != e8::cell::zombie_409; });
    if (e8::kind_of(table) == experiment::table_kind::upsert)
        copy.rows_sharing_npi = 0, copy.missing_npis = 0, copy.stale_rows = 0;
    s.runs.push_back(std::move(copy));
    return s.runs.back();
}

// The run as the no-retries prediction has it: every valid zombie-409
// checkpoint committed once (A's), the job failed twice, no duplicate row.
void as_predicted_without_retry(e8::writer_run& r) {
    for (auto& t : r.trials) {
        if (!e8::validity_of(t).valid) continue;
        erase_last_snapshot_of(r, e8::hit_checkpoint(t));
        t.exceptions_after = t.exceptions_before + 2;
    }
    r.duplicate_rows = 0;
}

// Every run given a store listing that holds every file its metadata
// references; with `strays`, also what the store prediction says each valid
// fault leaves: a lost or 504'd reply a Flink manifest of its checkpoint,
// an unforwarded 5xx a commit manifest and a manifest list written while it ran.
void give_stores(e8::samples& s, bool strays) {
    for (auto& r : s.runs) {
        r.store = experiment::store_check{"hand-built", 0, 100, {}, {}};
        if (!strays) continue;
        for (const auto& t : r.trials) {
            if (!e8::validity_of(t).valid) continue;
            const auto n = std::to_string(t.index);
            if (t.kind == e8::cell::lose_reply || t.kind == e8::cell::forward_then_504)
                r.store->unreferenced.push_back({"metadata/" + r.job + "-f1e2d3c4b5a6978812345678abcdef01-00000-0-" +
                                                     std::to_string(e8::hit_checkpoint(t)) + "-00001.avro",
                                                 1, t.armed_at_ms});
            else if (t.kind == e8::cell::status_unforwarded) {
                r.store->unreferenced.push_back({"metadata/snap-" + n + "-1-u.avro", 1, t.armed_at_ms});
                r.store->unreferenced.push_back({"metadata/u" + n + "-m0.avro", 1, t.armed_at_ms});
            }
        }
    }
}

// The first snapshot carrying the run's last watermark: its last checkpoint's commit.
check::snapshot_entry last_checkpoint_commit(const e8::writer_run& r) {
    const auto last = std::find_if(r.snapshots.rbegin(), r.snapshots.rend(),
                                   [](const auto& x) { return x.watermark >= 0 && check::adds_data(x); });
    if (last == r.snapshots.rend()) throw std::logic_error("e8 rule cases: no snapshot with a watermark");
    return *std::find_if(r.snapshots.begin(), r.snapshots.end(),
                         [&](const auto& x) { return x.watermark == last->watermark && check::adds_data(x); });
}

// The catalog lists `x` again under a new id, last; Trino reads its records twice.
void commit_again(e8::writer_run& r, check::snapshot_entry x) {
    for (const auto& y : r.snapshots) x.snapshot_id = std::max(x.snapshot_id, y.snapshot_id + 1);
    r.rows += static_cast<std::uint64_t>(x.added_records);
    r.duplicate_rows += static_cast<std::uint64_t>(x.added_records);
    r.snapshots.push_back(x);
}

// A held-reply trial added to a writer's append run, as the proxy would log
// it: the commit of the run's last checkpoint applied before the kill, its
// reply held and let go after a commit of a later one (a made-up id past the
// run's). With `doubled`, that checkpoint's snapshot appears twice.
void add_held_trial(e8::samples& s, const std::string& writer, bool doubled) {
    auto& r = named(s.runs, writer, &e8::writer_run::writer);
    const auto committed = last_checkpoint_commit(r);
    const auto c = committed.watermark;
    e8::trial t;
    t.index = r.trials.size() + 1, t.kind = e8::cell::held_kill_late_release, t.hit_rule = 900;
    t.exceptions_after = t.exceptions_before + 1;
    experiment::kill_record k;
    k.killed_at_ms = 1100;
    t.kill = k;
    experiment::table_request hit;
    hit.method = "POST", hit.rule = 900, hit.received_at_ms = 1000, hit.forwarded_at_ms = 1000;
    hit.upstream_replied_at_ms = 1050, hit.upstream_status = 200, hit.watermark = c;
    hit.released_at_ms = 20100, hit.released_by = "heal";
    experiment::table_request later;
    later.method = "POST", later.received_at_ms = 20000, later.forwarded_at_ms = 20000;
    later.upstream_replied_at_ms = 20050, later.upstream_status = 200, later.answered_status = 200;
    later.watermark = c + 1000;
    t.requests = {hit, later};
    r.trials.push_back(t);
    if (doubled) commit_again(r, committed);
}

// A trial of held-past-timeout, held-no-timeout or zombie-early on the run's
// last checkpoint, as the proxy would log it (rule 900; times around the
// catalog's commit time of its snapshot, 1000 when not kept). Held: applied,
// the reply let go at its deadline, past the client's timeout (undelivered, one
// failure) or under it (delivered, no failure). Early: A delayed past the kill
// and applied before the restored job's first table read; its snapshot the
// checkpoint's.
e8::trial hand_built(e8::cell c, const check::snapshot_entry& committed, std::uint64_t index) {
    const auto at = committed.timestamp_ms.value_or(1000);
    e8::trial t;
    t.index = index, t.kind = c, t.hit_rule = 900;
    t.failed_checkpoints_before = 0, t.failed_checkpoints_after = 0;
    experiment::table_request hit;
    hit.method = "POST", hit.rule = 900, hit.received_at_ms = at - 100, hit.forwarded_at_ms = at - 100;
    hit.upstream_replied_at_ms = at + 10, hit.upstream_status = 200, hit.watermark = committed.watermark;
    hit.snapshot_id = committed.snapshot_id;
    experiment::table_request read;
    read.method = "GET", read.received_at_ms = at + 5000, read.forwarded_at_ms = at + 5000;
    read.upstream_replied_at_ms = at + 5005, read.upstream_status = 200, read.answered_status = 200;
    experiment::table_request later;
    later.method = "POST", later.received_at_ms = at + 40000, later.forwarded_at_ms = at + 40000;
    later.upstream_replied_at_ms = at + 40050, later.upstream_status = 200, later.answered_status = 200;
    later.watermark = committed.watermark + 1000;
    if (c == e8::cell::held_past_timeout) {
        hit.released_at_ms = at + 30010, hit.released_by = "deadline";
        hit.note = "answering the client failed: it had closed its connection while its reply was held";
        t.exceptions_after = 1;
    } else if (c == e8::cell::held_no_timeout) {
        hit.released_at_ms = at + 20010, hit.released_by = "deadline";
        hit.answered_at_ms = at + 20011, hit.answered_status = 200;
    } else {  // zombie_early
        experiment::kill_record k;
        k.killed_at_ms = at - 60;
        t.kill = k;
        hit.forwarded_at_ms = at - 20;
        t.exceptions_after = 1;
    }
    t.requests = {hit, read, later};
    return t;
}

// One such trial added to the writer's run on `table`: its append run, or a
// copy of it onto another table with the trials dropped. With `doubled`, its
// checkpoint's snapshot appears twice.
void add_trial(e8::samples& s, e8::parameters& p, const std::string& writer, e8::table_variant table, e8::cell c,
               bool doubled) {
    p.record_cell_timings();
    if (table != e8::table_variant::append) {
        auto copy = named(s.runs, writer, &e8::writer_run::writer);
        copy.on_table = table;
        copy.trials.clear();
        if (e8::kind_of(table) == experiment::table_kind::upsert)
            copy.rows_sharing_npi = 0, copy.missing_npis = 0, copy.stale_rows = 0;
        s.runs.push_back(std::move(copy));
    }
    auto& r = table == e8::table_variant::append ? named(s.runs, writer, &e8::writer_run::writer) : s.runs.back();
    const auto committed = last_checkpoint_commit(r);
    r.trials.push_back(hand_built(c, committed, r.trials.size() + 1));
    if (doubled) commit_again(r, committed);
}
}  // namespace

template <>
std::vector<rule_case<e8::definition>> rule_cases<e8::definition>() {
    using S = e8::samples;
    using P = e8::parameters;
    using e8::cell;
    return {
        {"e8.lose-reply:sinkv2", "the checkpoint of SinkV2's first lost reply is committed by two snapshots",
         [](S& s, P&) { commit_hit_twice(s, "sinkv2", cell::lose_reply); }, verdict_kind::refuted},
        {"e8.lose-reply:flinksink", "the checkpoint of FlinkSink's first lost reply is committed by two snapshots",
         [](S& s, P&) { commit_hit_twice(s, "flinksink", cell::lose_reply); }, verdict_kind::refuted},
        {"e8.status-unforwarded:sinkv2",
         "the checkpoint of SinkV2's first unforwarded 5xx is committed by two snapshots",
         [](S& s, P&) { commit_hit_twice(s, "sinkv2", cell::status_unforwarded); }, verdict_kind::refuted},
        {"e8.status-unforwarded:flinksink", "FlinkSink's table lacks seqs 1000 to 1099 (nothing doubled)",
         [](S& s, P&) {
             auto& r = named(s.runs, "flinksink", &e8::writer_run::writer);
             r.missing_seq = 100;
             r.missing_runs = {{1000, 1099}};
             r.rows -= 100;
         },
         verdict_kind::refuted},
        {"e8.status-unforwarded:flinksink",
         "the checkpoint of FlinkSink's first unforwarded 5xx is committed by two snapshots",
         [](S& s, P&) { commit_hit_twice(s, "flinksink", cell::status_unforwarded); }, verdict_kind::refuted},
        {"e8.forward-then-504:sinkv2",
         "the checkpoint of SinkV2's first forwarded-then-504 commit is committed by two snapshots",
         [](S& s, P&) { commit_hit_twice(s, "sinkv2", cell::forward_then_504); }, verdict_kind::refuted},
        {"e8.forward-then-504:sinkv2", "SinkV2's first forwarded-then-504 trial failed the Flink job twice",
         [](S& s, P&) { fail_twice(s, "sinkv2", cell::forward_then_504); }, verdict_kind::refuted},
        {"e8.forward-then-504:flinksink", "FlinkSink's first forwarded-then-504 trial failed the Flink job twice",
         [](S& s, P&) { fail_twice(s, "flinksink", cell::forward_then_504); }, verdict_kind::refuted},
        {"e8.zombie-409:sinkv2", "SinkV2's first valid zombie-409 checkpoint is committed by one snapshot, not two",
         [](S& s, P&) { commit_hit_once(s, "sinkv2", cell::zombie_409); }, verdict_kind::refuted},
        {"e8.zombie-409:flinksink",
         "FlinkSink's first valid zombie-409 checkpoint is committed by one snapshot, not two",
         [](S& s, P&) { commit_hit_once(s, "flinksink", cell::zombie_409); }, verdict_kind::refuted},
        {"e8.zombie-refresh:sinkv2",
         "SinkV2's first valid zombie-refresh checkpoint is committed by one snapshot, not two",
         [](S& s, P&) { commit_hit_once(s, "sinkv2", cell::zombie_refresh); }, verdict_kind::refuted},
        {"e8.zombie-refresh:flinksink",
         "FlinkSink's first valid zombie-refresh checkpoint is committed by one snapshot, not two",
         [](S& s, P&) { commit_hit_once(s, "flinksink", cell::zombie_refresh); }, verdict_kind::refuted},
        // A doubled trial the proxy's log shows as void does not decide: the 504 was never answered.
        {"e8.forward-then-504:flinksink",
         "every FlinkSink forwarded-then-504 trial was answered 200, not 504 (void), and its checkpoint is committed twice",
         [](S& s, P&) {
             commit_hit_twice(s, "flinksink", cell::forward_then_504);
             for (auto& t : named(s.runs, "flinksink", &e8::writer_run::writer).trials)
                 if (t.kind == cell::forward_then_504)
                     for (auto& q : t.requests)
                         if (q.rule == t.hit_rule) q.answered_status = 200;
         },
         verdict_kind::inconclusive},
        {"e8.zombie-409-no-retries:sinkv2",
         "SinkV2's append run repeated with the retry off, its zombie-409 checkpoints still committed twice",
         [](S& s, P&) { copy_with_retry_off(s, "sinkv2", e8::table_variant::append_no_retries); },
         verdict_kind::refuted},
        {"e8.zombie-409-no-retries:flinksink",
         "FlinkSink's append run repeated with the retry off, its zombie-409 checkpoints still committed twice",
         [](S& s, P&) { copy_with_retry_off(s, "flinksink", e8::table_variant::append_no_retries); },
         verdict_kind::refuted},
        {"e8.zombie-409-no-retries:sinkv2",
         "as the refuted case, but the catalog never held commit.retry.num-retries = 0 for the table",
         [](S& s, P&) { copy_with_retry_off(s, "sinkv2", e8::table_variant::append_no_retries, false); },
         verdict_kind::inconclusive},
        {"e8.zombie-409-no-retries:flinksink",
         "FlinkSink's append run repeated with the retry off on an append and an upsert table, each zombie-409 checkpoint committed once and the job failed twice",
         [](S& s, P&) {
             as_predicted_without_retry(copy_with_retry_off(s, "flinksink", e8::table_variant::append_no_retries));
             as_predicted_without_retry(copy_with_retry_off(s, "flinksink", e8::table_variant::upsert_no_retries));
         },
         verdict_kind::held},
        {"e8.zombie-409-no-retries:flinksink", "as the held case, but one NPI of the upsert table holds a stale row",
         [](S& s, P&) {
             as_predicted_without_retry(copy_with_retry_off(s, "flinksink", e8::table_variant::append_no_retries));
             auto& upsert = copy_with_retry_off(s, "flinksink", e8::table_variant::upsert_no_retries);
             as_predicted_without_retry(upsert);
             upsert.stale_rows = 1;
         },
         verdict_kind::refuted},
        {"e8.zombie-409:sinkv2",
         "SinkV2's append run repeated on an upsert table, every zombie-409 checkpoint doubled there too and the table exact",
         [](S& s, P&) {
             auto copy = named(s.runs, "sinkv2", &e8::writer_run::writer);
             copy.on_table = e8::table_variant::upsert;
             copy.rows_sharing_npi = 0, copy.missing_npis = 0, copy.stale_rows = 0;
             s.runs.push_back(std::move(copy));
         },
         verdict_kind::held},
        {"e8.held-kill-late-release:sinkv2",
         "a held-reply trial on SinkV2's append run whose checkpoint is committed by two snapshots",
         [](S& s, P&) { add_held_trial(s, "sinkv2", true); }, verdict_kind::refuted},
        {"e8.held-kill-late-release:sinkv2",
         "the same trial, its checkpoint committed once (one trial of the 30 asked)",
         [](S& s, P&) { add_held_trial(s, "sinkv2", false); }, verdict_kind::inconclusive},
        {"e8.held-kill-late-release:flinksink",
         "a held-reply trial on FlinkSink's append run whose checkpoint is committed by two snapshots",
         [](S& s, P&) { add_held_trial(s, "flinksink", true); }, verdict_kind::refuted},
        {"e8.held-past-timeout:sinkv2",
         "a reply held past the client's timeout on SinkV2's short-timeout append table, its checkpoint committed by "
         "two snapshots",
         [](S& s, P& p) {
             add_trial(s, p, "sinkv2", e8::table_variant::append_short_timeout, cell::held_past_timeout, true);
         },
         verdict_kind::refuted},
        {"e8.held-past-timeout:sinkv2", "the same trial, its checkpoint committed once (one trial of the 10 asked)",
         [](S& s, P& p) {
             add_trial(s, p, "sinkv2", e8::table_variant::append_short_timeout, cell::held_past_timeout, false);
         },
         verdict_kind::inconclusive},
        {"e8.held-past-timeout:flinksink",
         "a reply held past the client's timeout on FlinkSink's short-timeout append table, its checkpoint committed "
         "by two snapshots",
         [](S& s, P& p) {
             add_trial(s, p, "flinksink", e8::table_variant::append_short_timeout, cell::held_past_timeout, true);
         },
         verdict_kind::refuted},
        {"e8.zombie-outside-window:sinkv2",
         "an early zombie on SinkV2's append run whose checkpoint is committed by two snapshots",
         [](S& s, P& p) { add_trial(s, p, "sinkv2", e8::table_variant::append, cell::zombie_early, true); },
         verdict_kind::refuted},
        {"e8.zombie-outside-window:sinkv2",
         "the same trial, its checkpoint committed once, by A (one early trial, no late one)",
         [](S& s, P& p) { add_trial(s, p, "sinkv2", e8::table_variant::append, cell::zombie_early, false); },
         verdict_kind::inconclusive},
        {"e8.zombie-outside-window:flinksink",
         "an early zombie on FlinkSink's append run whose checkpoint is committed by two snapshots",
         [](S& s, P& p) { add_trial(s, p, "flinksink", e8::table_variant::append, cell::zombie_early, true); },
         verdict_kind::refuted},
        {"e8.held-no-timeout-stalls",
         "a reply held under the client's timeout on SinkV2's append run, its checkpoint committed by two snapshots",
         [](S& s, P& p) { add_trial(s, p, "sinkv2", e8::table_variant::append, cell::held_no_timeout, true); },
         verdict_kind::refuted},
        {"e8.held-no-timeout-stalls", "the same trial, its checkpoint committed once (FlinkSink has none)",
         [](S& s, P& p) { add_trial(s, p, "sinkv2", e8::table_variant::append, cell::held_no_timeout, false); },
         verdict_kind::inconclusive},
        {"e8.no-referenced-file-missing",
         "every run lists its store, and sinkv2's lacks one data file its metadata references",
         [](S& s, P&) {
             give_stores(s, true);
             named(s.runs, "sinkv2", &e8::writer_run::writer).store->referenced_missing = {"data/gone.parquet"};
         },
         verdict_kind::refuted},
        {"e8.no-referenced-file-missing",
         "every run lists its store, which holds every referenced file (the Connect sink and held replies still not run)",
         [](S& s, P&) { give_stores(s, true); }, verdict_kind::inconclusive},
        {"e8.unacknowledged-commits-leave-orphans",
         "every run lists its store, and no fault left a file that nothing references",
         [](S& s, P&) { give_stores(s, false); }, verdict_kind::refuted},
        {"e8.unacknowledged-commits-leave-orphans",
         "every run lists its store, and each valid fault left what the prediction says (the Connect sink and held "
         "replies still not run)",
         [](S& s, P&) { give_stores(s, true); }, verdict_kind::inconclusive},
    };
}

}  // namespace rosterrig::claims_test

namespace rosterrig::claims_test {
// The cells this version does not run (e8::not_run: the Connect writer, the
// held replies, no retries, outside the window and the operator signals): their rules say "not run" whatever they are given.
template <>
std::set<std::string> rules_not_run<e8::definition>() {
    std::set<std::string> out;
    for (const auto& [id, why] : e8::not_run()) out.insert(id);
    return out;
}
}  // namespace rosterrig::claims_test
