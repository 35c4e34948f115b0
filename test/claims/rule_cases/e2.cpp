// test/claims/rule_cases/e2.cpp: the shipped run with a restore's first new snapshot stamped at another checkpoint, a seq lost or doubled, or an NPI on two rows.
#include "../rule_cases.hpp"
#include <rosterrig/experiments/e2_savepoint_restore/e2_savepoint_restore.hpp>

#include <stdexcept>

namespace rosterrig::claims_test {
namespace {

e2::restore_run& repeat_of(e2::samples& s, const std::string& variant, std::uint64_t repeat) {
    for (auto& r : s.runs)
        if (r.variant == variant && r.repeat == repeat) return r;
    throw std::logic_error("e2 rule cases: no repeat " + std::to_string(repeat) + " of " + variant);
}

// The first snapshot the table gained after the restore carries `checkpoint`
// as its flink.max-committed-checkpoint-id, in every sample that saw it and in
// the catalog's list.
void stamp_first_new_snapshot(e2::restore_run& r, std::int64_t checkpoint) {
    std::int64_t first_new = -1;
    for (const auto& x : r.samples)
        if (x.snapshot_id != r.snapshot_before) {
            first_new = x.snapshot_id;
            break;
        }
    if (first_new < 0) throw std::logic_error("e2 rule cases: the table never moved in " + r.variant);
    for (auto& x : r.samples)
        if (x.snapshot_id == first_new) x.max_committed_checkpoint_id = checkpoint;
    for (auto& x : r.snapshots_after)
        if (x.snapshot_id == first_new) x.max_committed_checkpoint_id = checkpoint;
}

}  // namespace

template <>
std::vector<rule_case<e2::definition>> rule_cases<e2::definition>() {
    using S = e2::samples;
    using P = e2::parameters;
    return {
        {"e2.post-freeze-batch-lands-once", "append-flinksink repeat 1 holds one seq of the third batch twice",
         [](S& s, P&) {
             auto& r = repeat_of(s, "append-flinksink", 1);
             ++r.third_batch.value().duplicate_rows;
             ++r.duplicate_rows, ++r.rows;
         },
         verdict_kind::refuted},
        {"e2.post-freeze-batch-lands-once", "append-sinkv2 repeat 1 lacks the third batch's first seq",
         [](S& s, P&) {
             auto& r = repeat_of(s, "append-sinkv2", 1);
             auto& b = r.third_batch.value();
             ++b.missing_seqs;
             r.missing_runs.push_back({b.first_seq, b.first_seq});
             --r.rows;
         },
         verdict_kind::refuted},
        {"e2.flinksink-append-freezes-then-lumps",
         "append-flinksink repeat 1's table moves at its old watermark's checkpoint, not the one after (no freeze)",
         [](S& s, P&) {
             auto& r = repeat_of(s, "append-flinksink", 1);
             stamp_first_new_snapshot(r, r.watermark_before);
         },
         verdict_kind::refuted},
        {"e2.flinksink-append-freezes-then-lumps", "append-flinksink repeat 2's table lacks seq 100",
         [](S& s, P&) {
             auto& r = repeat_of(s, "append-flinksink", 2);
             r.missing_runs.push_back({100, 100});
             --r.rows;
         },
         verdict_kind::refuted},
        // The shipped run refutes it (the table moves long before W+1); one NPI on two rows refutes it whatever the freeze.
        {"e2.flinksink-upsert-freezes-replay-invisible", "upsert-flinksink repeat 1 leaves one NPI on two rows",
         [](S& s, P&) {
             auto& r = repeat_of(s, "upsert-flinksink", 1);
             ++r.rows_sharing_npi, ++r.stale_rows, ++r.rows;
         },
         verdict_kind::refuted},
        {"e2.sinkv2-append-no-freeze-duplicates",
         "append-sinkv2 repeat 1's table first moves at the checkpoint after its old watermark (a freeze)",
         [](S& s, P&) {
             auto& r = repeat_of(s, "append-sinkv2", 1);
             stamp_first_new_snapshot(r, r.watermark_before + 1);
         },
         verdict_kind::refuted},
        {"e2.sinkv2-append-no-freeze-duplicates", "append-sinkv2 repeat 1's replay duplicates no row",
         [](S& s, P&) {
             auto& r = repeat_of(s, "append-sinkv2", 1);
             r.rows -= r.duplicate_rows;
             r.duplicate_rows = 0;
         },
         verdict_kind::refuted},
    };
}

// Every cell of this experiment ran: no rule waits for one.
template <>
std::set<std::string> rules_not_run<e2::definition>() {
    return {};
}

}  // namespace rosterrig::claims_test
