// rosterrig/experiments/e1c_checkpoint_timeouts/rules.hpp: experiment 1c's analysis (timeouts, records committed) and the verdict rules, rules()
#ifndef ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_RULES_HPP

#include <map>
#include <string>
#include <vector>

#include "rosterrig/experiments/e1c_checkpoint_timeouts/samples.hpp"
#include "rosterrig/experiment/missing_run_attribution.hpp"

namespace rosterrig::e1c {

// ---- analysis ---------------------------------------------------------------

/// Every run of the cell `name`, in the order they ran (one per repeat).
inline std::vector<const cell_run*> runs_of(const samples& s, const std::string& name) {
    std::vector<const cell_run*> out;
    for (const auto& r : s.runs)
        if (r.name == name) out.push_back(&r);
    return out;
}

/// Checkpoints the polled history shows timed out.
inline std::uint64_t timeouts_recorded(const cell_run& r) {
    return static_cast<std::uint64_t>(std::count_if(r.checkpoints.begin(), r.checkpoints.end(),
                                                    [](const auto& c) { return experiment::timed_out(c); }));
}
/// The timed-out checkpoints a cell can be judged on: the expiries in Flink's
/// history. Not its failed count: a checkpoint refused at its trigger (tasks
/// not yet running, at the job's start) counts as failed and never enters the
/// history (run at 3869baf: the control's one failure).
inline std::uint64_t timeouts_of(const cell_run& r) { return timeouts_recorded(r); }
/// Checkpoint ids the history never showed, between 1 and its highest id: where
/// it has gaps, the timeouts counted are a lower bound.
inline std::uint64_t history_gaps(const cell_run& r) {
    if (r.checkpoints.empty()) return 0;
    std::int64_t top = 0;
    for (const auto& c : r.checkpoints) top = std::max(top, c.id);
    return static_cast<std::uint64_t>(top) - r.checkpoints.size();
}
/// Records the snapshots added, summed from their summaries.
inline std::int64_t records_committed(const cell_run& r) {
    std::int64_t n = 0;
    for (const auto& s : r.snapshots)
        if (check::adds_data(s)) n += s.added_records;
    return n;
}

// ---- verdict rules ----------------------------------------------------------

/// A run named as the report names it: its cell and its round.
inline std::string run_label(const cell_run& r) { return r.name + " #" + std::to_string(r.repeat); }

/// What a run lost, in its table's unit: seqs missing (append), NPIs whose
/// last record is on no row (upsert).
inline std::uint64_t lost_of(const cell_run& r) {
    return r.upsert ? r.upsert->npis_missing + r.upsert->npis_without_latest : r.missing_seq;
}
/// Rows on an NPI already on a row: an upsert table's duplicates (0 for append).
inline std::uint64_t keys_doubled_of(const cell_run& r) { return r.upsert ? r.upsert->rows_sharing_npi : 0; }

using experiment::phrase;

/// Why a cell's runs cannot answer, if they cannot.
inline std::optional<experiment::rule_verdict> cannot_answer(const std::vector<const cell_run*>& runs,
                                                             const std::string& name) {
    if (runs.empty()) return experiment::inconclusive({{"cell", name}}, "{cell}: the cell did not run");
    for (const auto* r : runs) {
        if (!r->observed)
            return experiment::inconclusive({{"run", run_label(*r)}}, "{run}: the table was not read back");
        if (r->upsert && !experiment::reports_upsert_on(r->upsert->table_in_force, "npi"))
            return experiment::inconclusive({{"run", run_label(*r)}},
                                            "{run}: the catalog does not report the table as upsert on npi");
        if (r->writer_parallelism < 2)
            return experiment::inconclusive(
                {{"run", run_label(*r)}, {"writer_parallelism", r->writer_parallelism}},
                "{run}: the writer ran at parallelism {writer_parallelism}; the question needs several writer subtasks");
    }
    return std::nullopt;
}

/// What `timeouts_of` counted, said as what it is.
inline phrase timeouts_phrase(const cell_run& r) {
    const auto gaps = history_gaps(r);
    return {{{"timeouts", timeouts_of(r)}, {"history_gaps", gaps}, {"failed", r.totals.failed}},
            gaps ? "{timeouts} or more timed-out checkpoints (Flink's history, missing {history_gaps} ids; {failed} "
                   "failed in Flink's count)"
                 : "{timeouts} timed-out checkpoints (Flink's history, every id; {failed} failed in Flink's count)"};
}
inline std::string timeouts_text(const cell_run& r) { return timeouts_phrase(r).text(); }

/// A run's loss said in its table's unit.
inline phrase lost_phrase(const cell_run& r) {
    if (!r.upsert)
        return {{{"lost", lost_of(r)}, {"missing_seqs", r.missing_seq}, {"missing_ranges", r.missing_runs.size()}},
                "{missing_seqs} seqs missing in {missing_ranges} ranges"};
    const auto& u = *r.upsert;
    return {{{"lost", lost_of(r)},
             {"npis_expected", u.npis_expected},
             {"npis_missing", u.npis_missing},
             {"npis_without_latest", u.npis_without_latest},
             {"rows_sharing_npi", u.rows_sharing_npi}},
            "{lost} of {npis_expected} NPIs without their last record ({npis_missing} on no row, "
            "{npis_without_latest} only on older rows), {rows_sharing_npi} rows on an NPI already on a row"};
}
inline std::string lost_text(const cell_run& r) { return lost_phrase(r).text(); }

inline phrase loss_phrase(const cell_run& r) {
    return lost_phrase(r) + " after " + timeouts_phrase(r) +
           phrase{{{"completed", r.totals.completed}, {"data_unreferenced", r.store.data_unreferenced}},
                  ", {completed} completed; {data_unreferenced} data files in the store never committed"};
}
inline std::string loss_text(const cell_run& r) { return loss_phrase(r).text(); }

/// Whether a run's attribution needs its feed's partitions: it recorded a
/// placement without pieces (they are derived) and has missing runs.
inline bool attribution_needs_feed(const cell_run& r) {
    return r.placement && !r.upsert && r.placement->missing.empty() && !r.missing_runs.empty();
}

/// seq s's partition at [s - 1] in the feed `p` gives a run's cell,
/// regenerated from its seed (seconds for millions of events); refused when
/// the run recorded another count of events than that feed has.
inline std::vector<std::uint32_t> partitions_of_feed(const cell_run& r, const parameters& p) {
    const auto all = cells();
    const auto c = std::find_if(all.begin(), all.end(), [&](const cell& x) { return x.name == r.name; });
    if (c == all.end()) throw std::invalid_argument("e1c: run '" + r.name + "' names no cell");
    const auto feed = feed_of(p, *c);
    if (feed.events != r.events)
        throw std::logic_error("e1c: " + run_label(r) + " recorded " + std::to_string(r.events) +
                               " events, its cell's feed has " + std::to_string(feed.events));
    return experiment::partition_by_seq_of(feed);
}

/// The feeds' partitions by cell, each regenerated once (a cell's repeats
/// share a feed) and only for a run that needs it (attribution_needs_feed);
/// empty for the others, whose attribution does not read them.
class feed_partitions {
public:
    explicit feed_partitions(const parameters& p) : params_(p) {}
    const std::vector<std::uint32_t>& of(const cell_run& r) {
        if (const auto it = by_cell_.find(r.name); it != by_cell_.end()) return it->second;
        if (!attribution_needs_feed(r)) return none_;
        return by_cell_.emplace(r.name, partitions_of_feed(r, params_)).first->second;
    }

private:
    parameters params_;
    std::map<std::string, std::vector<std::uint32_t>> by_cell_;
    std::vector<std::uint32_t> none_;
};

/// An append run's missing runs, each with the commit that should have carried
/// it (experiment/missing_run_attribution.hpp), computed from the recorded
/// placement, snapshots and history; nullopt for a run that recorded no
/// placement (upsert cells, runs from before it was recorded). The pieces are
/// the recorded ones where a run stored them, else the missing runs split by
/// `partition_of_seq` (partitions_of_feed; unused when the run stored pieces).
inline std::optional<std::vector<experiment::missing_run_attribution>> attribution_of(
    const cell_run& r, const std::vector<std::uint32_t>& partition_of_seq) {
    if (!r.placement || r.upsert) return std::nullopt;
    const auto pieces =
        r.placement->missing.empty() ? experiment::pieces_of(r.missing_runs, partition_of_seq) : r.placement->missing;
    return experiment::attribute_missing_runs(r.missing_runs, pieces, r.placement->spans, r.snapshots, r.checkpoints);
}

/// How long after its trigger checkpoint expired (trigger + end to end, from
/// Flink's history) a kill came; nullopt when the history lacks that checkpoint.
inline std::optional<std::int64_t> kill_after_expiry_ms(const cell_run& r, const timeout_kill& k) {
    for (const auto& c : r.checkpoints)
        if (c.id == k.timed_out_checkpoint) return k.kill.killed_at_ms - experiment::ended_at_ms(c);
    return std::nullopt;
}

/// Whether a checkpoint of the run's recorded history completed (trigger plus
/// end to end) before `at_ms`: a job killed before any did has none to restore.
inline bool completed_before(const cell_run& r, std::int64_t at_ms) {
    return std::any_of(r.checkpoints.begin(), r.checkpoints.end(), [&](const experiment::checkpoint_outcome& c) {
        return c.status == "COMPLETED" && experiment::ended_at_ms(c) < at_ms;
    });
}

/// A cell's runs taken together: what its rules judge.
struct cell_total {
    std::size_t runs = 0, runs_that_lost = 0, runs_that_doubled = 0;
    std::uint64_t lost = 0, keys_doubled = 0, timeouts = 0;
};
inline cell_total total_of(const std::vector<const cell_run*>& runs) {
    cell_total t;
    for (const auto* r : runs) {
        ++t.runs;
        t.runs_that_lost += lost_of(*r) > 0 ? 1 : 0;
        t.runs_that_doubled += keys_doubled_of(*r) > 0 ? 1 : 0;
        t.lost += lost_of(*r);
        t.keys_doubled += keys_doubled_of(*r);
        t.timeouts += timeouts_of(*r);
    }
    return t;
}

/// The loss of a cell's runs: one run as `loss_phrase` says it; several with
/// how many repeats lost and the spread first, then each repeat (its facts
/// under "#<repeat>").
inline phrase cell_loss_phrase(const std::vector<const cell_run*>& runs) {
    if (runs.size() == 1) return loss_phrase(*runs.front());
    const auto t = total_of(runs);
    phrase each{{}, {}};
    std::string spread;
    for (const auto* r : runs) {
        const std::string key = "#" + std::to_string(r->repeat);
        spread += (spread.empty() ? "{" : " / {") + key + ".lost}";
        each = each + phrase{{}, "; " + key + ": "} + experiment::nested(key, loss_phrase(*r));
    }
    const std::string unit = runs.front()->upsert ? "NPIs without their last record " : "seqs missing ";
    return phrase{{{"runs_that_lost", t.runs_that_lost}, {"runs", t.runs}, {"timeouts", t.timeouts}},
                  "lost in {runs_that_lost} of {runs} repeats (" + unit + spread +
                      ") after {timeouts} timed-out checkpoints in all"} +
           each;
}
inline std::string cell_loss_text(const std::vector<const cell_run*>& runs) { return cell_loss_phrase(runs).text(); }

/// What a cell's rule counts over its runs: records lost (either table kind),
/// or rows on an NPI already on a row (an upsert table's doubled keys).
enum class measure { lost, keys_doubled };
/// What a rule predicts of its measure: that it shows, or that it never does.
enum class expect { some, none };

inline std::uint64_t amount_of(const cell_total& t, measure m) { return m == measure::lost ? t.lost : t.keys_doubled; }

/// Why the runs cannot answer a question about keys: a run without an upsert table.
inline std::optional<experiment::rule_verdict> not_upsert(const std::vector<const cell_run*>& runs,
                                                          const std::string& why) {
    for (const auto* r : runs)
        if (!r->upsert) return experiment::inconclusive(phrase{{{"run", run_label(*r)}}, "{run}: "} + why);
    return std::nullopt;
}

/// The reason a rule gives: the cell's loss, preceded, when keys are what it
/// judges, by how many repeats left an NPI on several rows.
inline phrase evidence_phrase(const std::vector<const cell_run*>& runs, measure m) {
    if (m == measure::lost) return cell_loss_phrase(runs);
    const auto t = total_of(runs);
    return phrase{{{"runs_that_doubled", t.runs_that_doubled}, {"runs", t.runs}},
                  "an NPI on several rows in {runs_that_doubled} of {runs} repeats; "} +
           cell_loss_phrase(runs);
}

/// One cell's prediction about `m`, over all its runs. Any amount decides it
/// (held if `some` was expected, refuted if `none`); with none seen it takes
/// `enough` timeouts to decide the other way, the timeouts standing for the
/// backpressure under which results arrive late. A held "loses nothing" also
/// states a bound on the per-timeout loss probability; a held "no key on two
/// rows" states none.
inline experiment::rule_verdict judge_cell(const samples& s, const std::string& name, measure m, expect e,
                                           std::uint64_t enough) {
    using namespace experiment;
    const auto runs = runs_of(s, name);
    if (auto no = cannot_answer(runs, name)) return *no;
    if (m == measure::keys_doubled)
        if (auto no = not_upsert(runs, "an append table has no key to double")) return *no;
    const auto t = total_of(runs);
    const auto what =
        evidence_phrase(runs, m) +
        phrase{{{"amount", amount_of(t, m)}, {"timeouts_in_all", t.timeouts}, {"timeouts_needed", enough}}, ""};
    if (amount_of(t, m) > 0) return e == expect::some ? held(what) : refuted(what);
    if (t.timeouts < enough)
        return inconclusive(what + (e == expect::some ? "; at least {timeouts_needed} timeouts are needed to refute"
                                                      : "; at least {timeouts_needed} timeouts are needed"));
    if (e == expect::some) return refuted(what);
    if (m == measure::keys_doubled) return held(what);
    return held(what + phrase{{{"bound", stats::clopper_pearson_upper(0, t.timeouts)}},
                              "; the per-timeout loss probability is at most {bound:.3} (95%, one-sided, over "
                              "{timeouts_in_all} timeouts)"});
}

/// "This cell loses records once checkpoints time out" (a missing seq, or an
/// NPI whose last record is on no row).
inline experiment::rule_verdict loses(const samples& s, const std::string& name, std::uint64_t enough) {
    return experiment::held_by_any_trial(judge_cell(s, name, measure::lost, expect::some, enough));
}
/// "This cell loses nothing, however many checkpoints time out".
inline experiment::rule_verdict loses_nothing(const samples& s, const std::string& name, std::uint64_t enough) {
    return judge_cell(s, name, measure::lost, expect::none, enough);
}
/// "This upsert cell leaves an NPI on more than one row".
inline experiment::rule_verdict keys_doubled(const samples& s, const std::string& name, std::uint64_t enough) {
    return experiment::held_by_any_trial(judge_cell(s, name, measure::keys_doubled, expect::some, enough));
}
/// "This upsert cell leaves no NPI on two rows".
inline experiment::rule_verdict no_key_doubled(const samples& s, const std::string& name, std::uint64_t enough) {
    return judge_cell(s, name, measure::keys_doubled, expect::none, enough);
}

/// "Without timeouts the cell is exact": a control, run with the generous
/// timeout. An append control is judged on its loss; an upsert control also on
/// NPIs on two rows, and needs an upsert table. Inconclusive when its
/// checkpoints timed out after all or fewer than 3 completed.
inline experiment::rule_verdict control_exact(const samples& s, const std::string& name, experiment::table_kind kind) {
    using namespace experiment;
    const bool upsert = kind == table_kind::upsert;
    const auto runs = runs_of(s, name);
    if (auto no = cannot_answer(runs, name)) return *no;
    if (upsert)
        if (auto no = not_upsert(runs, "not an upsert table")) return *no;
    const auto t = total_of(runs);
    const auto what =
        evidence_phrase(runs, upsert ? measure::keys_doubled : measure::lost) +
        phrase{{{"lost_in_all", t.lost}, {"keys_doubled", t.keys_doubled}, {"timeouts_in_all", t.timeouts}}, ""};
    if (t.lost > 0 || (upsert && t.keys_doubled > 0)) return refuted(what);
    if (t.timeouts > 0)
        return inconclusive(what + "; the control's checkpoints timed out, so it did not hold its condition");
    for (const auto* r : runs)
        if (r->totals.completed < 3)
            return inconclusive(what + phrase{{{"few_completed", run_label(*r)}},
                                              "; fewer than 3 checkpoints completed in {few_completed}"});
    return held(what);
}

/// "No cell duplicates": no job restarted, so no checkpoint is replayed.
inline experiment::rule_verdict no_duplicates(const samples& s) {
    using namespace experiment;
    if (s.runs.empty()) return inconclusive({}, "no cell ran");
    phrase dup{{}, {}};
    std::uint64_t rows = 0;
    for (const auto& r : s.runs) {
        if (r.kills) continue;  // a kill cell restarts its job: e1c.kill-after-timeout-no-duplicates judges it
        if (!r.observed) return inconclusive({{"run", run_label(r)}}, "{run}: the table was not read back");
        rows += r.rows;
        if (r.duplicate_rows > 0)
            dup = dup + nested(run_label(r), phrase{{{"run", run_label(r)}, {"duplicate_rows", r.duplicate_rows}},
                                                    "{run}: {duplicate_rows} duplicate seq rows; "});
    }
    if (!dup.values.empty()) return refuted(dup);
    return held({{"cell_runs", s.runs.size()}, {"rows", rows}},
                "no duplicate seq row in {cell_runs} cell runs ({rows} rows)");
}

/// "The short timeout makes at least `enough` checkpoints time out in each
/// short-timeout cell, and the job never fails": the fault was applied, in
/// every run of every short-timeout cell.
inline experiment::rule_verdict timeouts_applied(const samples& s, std::uint64_t enough) {
    using namespace experiment;
    phrase what{{{"timeouts_needed", enough}}, {}};
    boost::json::array short_of, restarts_unknown;
    std::size_t judged = 0;
    for (const auto& r : s.runs) {
        if (r.timeout_requested_ms >= 60'000) continue;        // the control
        if (r.feed_rate.value_or(0) > 0 || r.kills) continue;  // paced: the prediction is about backpressured cells
        ++judged;
        // -1: Flink's metric fetcher never reported numRestarts, so "no restart" is unknown, not refuted.
        const bool reported = r.restarts_reported >= 0;
        what = what +
               nested(run_label(r), phrase{{{"run", run_label(r)}}, "{run}: "} + timeouts_phrase(r) +
                                        phrase{{{"checkpoints", r.totals.completed + r.totals.failed}},
                                               " of {checkpoints} checkpoints, "} +
                                        (reported ? phrase{{{"restarts", r.restarts_reported}}, "{restarts} restarts; "}
                                                  : phrase{{}, "restarts not reported; "}));
        if (timeouts_of(r) < enough || r.restarts_reported > 0)
            short_of.push_back(boost::json::string(run_label(r)));
        else if (!reported)
            restarts_unknown.push_back(boost::json::string(run_label(r)));
    }
    if (judged == 0) return inconclusive({}, "no short-timeout cell ran");
    if (!short_of.empty())
        return refuted(what + phrase{{{"short_of", std::move(short_of)}}, "short of it: {short_of}"});
    if (!restarts_unknown.empty())
        return inconclusive(what + phrase{{{"restarts_unknown", std::move(restarts_unknown)}},
                                          "no restart count from Flink for {restarts_unknown}"});
    return held(what);
}

/// The source's backpressure over a run's drain (feed start to drained), or
/// nullopt when the run recorded no sample in it.
inline std::optional<experiment::backpressure_summary> backpressure_of(const cell_run& r) {
    if (!r.source_backpressure) return std::nullopt;
    return experiment::summarize_backpressure(*r.source_backpressure, 0, r.drained_ms);
}
/// A run's backpressure as a phrase (its facts: median, max, samples).
inline experiment::phrase backpressure_phrase(const cell_run& r) {
    const auto b = backpressure_of(r);
    if (!b) return {{{"backpressure_samples", 0}}, "no backpressure sample"};
    return {{{"backpressure_median_ms_per_s", b->median_ms_per_s},
             {"backpressure_max_ms_per_s", b->max_ms_per_s},
             {"backpressure_samples", b->samples}},
            "source backpressured {backpressure_median_ms_per_s:.0} ms/s median, {backpressure_max_ms_per_s:.0} max "
            "({backpressure_samples} samples)"};
}
inline std::string backpressure_text(const cell_run& r) { return backpressure_phrase(r).text(); }

/// "The paced cells ran without backpressure and the cells produced at once
/// with it", by Flink's measure of the source: every paced run's median at or
/// below `paced_at_most`, every short-timeout run produced at once at or above
/// `at_once_at_least` (ms per second). Inconclusive when a run has no sample,
/// or no run of either kind ran.
inline experiment::rule_verdict paced_without_backpressure(const samples& s, double paced_at_most,
                                                           double at_once_at_least) {
    using namespace experiment;
    phrase what{{{"paced_at_most", paced_at_most}, {"at_once_at_least", at_once_at_least}}, {}};
    boost::json::array wrong;
    std::size_t paced = 0, at_once = 0;
    for (const auto& r : s.runs) {
        if (r.timeout_requested_ms >= 60'000) continue;  // the controls: not asked
        const auto b = backpressure_of(r);
        if (!b) return inconclusive({{"run", run_label(r)}}, "{run}: no backpressure sample during its drain");
        const bool is_paced = r.feed_rate.value_or(0) > 0;
        (is_paced ? paced : at_once) += 1;
        what = what + nested(run_label(r), phrase{{{"run", run_label(r)}}, "{run}: "} + backpressure_phrase(r) + "; ");
        if (is_paced ? b->median_ms_per_s > paced_at_most : b->median_ms_per_s < at_once_at_least)
            wrong.push_back(boost::json::string(run_label(r)));
    }
    if (paced == 0 || at_once == 0)
        return inconclusive({{"paced_runs", paced}, {"at_once_runs", at_once}},
                            "needs paced runs and runs produced at once: {paced_runs} and {at_once_runs}");
    if (wrong.empty()) return held(what);
    return refuted(what + phrase{{{"not_as_predicted", std::move(wrong)}}, "not as predicted: {not_as_predicted}"});
}

/// The cell produced at once that a paced cell is the paced twin of.
inline std::optional<cell> at_once_twin(const cell& c) {
    for (const auto& x : cells())
        if (!x.paced && !x.kill_after_timeout && x.sink == c.sink && x.unaligned == c.unaligned && x.kind == c.kind &&
            x.short_timeout == c.short_timeout)
            return x;
    return std::nullopt;
}
/// Timed-out checkpoints of all checkpoints Flink counted, over a cell's runs.
inline std::pair<std::uint64_t, std::int64_t> timeout_share(const std::vector<const cell_run*>& runs) {
    std::uint64_t timeouts = 0;
    std::int64_t all = 0;
    for (const auto* r : runs) timeouts += timeouts_of(*r), all += r->totals.completed + r->totals.failed;
    return {timeouts, all};
}

/// "Without backpressure a smaller share of checkpoints times out": for each
/// paced cell, its share of timed-out checkpoints (history over Flink's count,
/// pooled over its runs) below its twin's produced at once.
inline experiment::rule_verdict paced_times_out_less(const samples& s) {
    using namespace experiment;
    phrase what{{}, {}};
    boost::json::array wrong;
    std::size_t pairs = 0;
    for (const auto& c : cells()) {
        if (!c.paced) continue;
        const auto twin = at_once_twin(c);
        if (!twin) continue;
        const auto a = runs_of(s, c.name), b = runs_of(s, twin->name);
        if (a.empty() || b.empty()) continue;
        const auto [ta, na] = timeout_share(a);
        const auto [tb, nb] = timeout_share(b);
        if (na == 0 || nb == 0) return inconclusive({{"cell", c.name}}, "{cell}: no checkpoint counted");
        ++pairs;
        what = what + nested(c.name, phrase{{{"cell", c.name},
                                             {"paced_timeouts", ta},
                                             {"paced_checkpoints", na},
                                             {"at_once_timeouts", tb},
                                             {"at_once_checkpoints", nb}},
                                            "{cell}: {paced_timeouts} of {paced_checkpoints} timed out, against "
                                            "{at_once_timeouts} of {at_once_checkpoints} produced at once; "});
        if (!(static_cast<double>(ta) / static_cast<double>(na) < static_cast<double>(tb) / static_cast<double>(nb)))
            wrong.push_back(boost::json::string(c.name));
    }
    if (pairs == 0) return inconclusive({}, "no paced cell ran beside its twin produced at once");
    if (wrong.empty()) return held(what);
    return refuted(what + phrase{{{"not_less", std::move(wrong)}}, "not less: {not_less}"});
}

/// "A kill right after a timed-out checkpoint duplicates nothing": the kill
/// runs' duplicate seq rows. Inconclusive while no kill run killed.
inline experiment::rule_verdict kill_after_timeout_no_duplicates(const samples& s) {
    using namespace experiment;
    std::size_t runs = 0, kills = 0;
    phrase what{{}, {}};
    boost::json::array dup;
    for (const auto& r : s.runs) {
        if (!r.kills) continue;
        if (!r.observed) return inconclusive({{"run", run_label(r)}}, "{run}: the table was not read back");
        ++runs, kills += r.kills->size();
        what = what +
               nested(run_label(r),
                      phrase{{{"run", run_label(r)}, {"kills", r.kills->size()}, {"duplicate_rows", r.duplicate_rows}},
                             "{run}: {kills} kills, {duplicate_rows} duplicate seq rows; "});
        if (r.duplicate_rows > 0) dup.push_back(boost::json::string(run_label(r)));
    }
    if (kills == 0) return inconclusive({{"kill_runs", runs}}, "no kill run killed ({kill_runs} kill runs)");
    if (dup.empty()) return held(what);
    return refuted(what + phrase{{{"duplicated", std::move(dup)}}, "duplicated: {duplicated}"});
}

/// "The kills were applied as planned": every kill run made `per_run` kills,
/// each right after a checkpoint that timed out above the last restore, and
/// the same job ran again after each.
inline experiment::rule_verdict kills_applied(const samples& s, std::uint64_t per_run) {
    using namespace experiment;
    std::size_t runs = 0;
    phrase what{{{"kills_per_run", per_run}}, {}};
    boost::json::array wrong;
    for (const auto& r : s.runs) {
        if (!r.kills) continue;
        ++runs;
        std::int64_t restored = -1;
        bool ok = r.kills->size() == per_run;
        boost::json::array triggers, restores, running;
        for (const auto& k : *r.kills) {
            ok = ok && k.timed_out_checkpoint > restored && k.kill.same_job_running;
            triggers.push_back(k.timed_out_checkpoint), restores.push_back(k.kill.restored_checkpoint_id);
            running.push_back(k.kill.same_job_running);
            restored = std::max(restored, k.kill.restored_checkpoint_id);
        }
        what = what + nested(run_label(r), phrase{{{"run", run_label(r)},
                                                   {"kills", r.kills->size()},
                                                   {"timed_out", std::move(triggers)},
                                                   {"restored", std::move(restores)},
                                                   {"same_job_running", std::move(running)}},
                                                  "{run}: {kills} kills after timed-out checkpoints {timed_out}, "
                                                  "restored {restored}, running again {same_job_running}; "});
        if (!ok) wrong.push_back(boost::json::string(run_label(r)));
    }
    if (runs == 0) return inconclusive({}, "no kill cell ran");
    if (wrong.empty()) return held(what);
    return refuted(what + phrase{{{"not_as_planned", std::move(wrong)}}, "not as planned: {not_as_planned}"});
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    const auto c = cells();
    std::vector<rule> out;
    out.push_back({"e1c.loses:" + c[0].name, [n = c[0].name](const samples& s, const parameters& p) {
                       return loses(s, n, p.timeouts_to_judge);
                   }});
    for (const auto& x : {c[1], c[2], c[3]})
        out.push_back({"e1c.loses-nothing:" + x.name, [n = x.name](const samples& s, const parameters& p) {
                           return loses_nothing(s, n, p.timeouts_to_judge);
                       }});
    out.push_back({"e1c.control-loses-nothing", [n = c[4].name](const samples& s, const parameters&) {
                       return control_exact(s, n, experiment::table_kind::append);
                   }});
    out.push_back({"e1c.loses:" + c[5].name, [n = c[5].name](const samples& s, const parameters& p) {
                       return loses(s, n, p.timeouts_to_judge);
                   }});
    out.push_back({"e1c.no-key-on-two-rows:" + c[5].name, [n = c[5].name](const samples& s, const parameters& p) {
                       return no_key_doubled(s, n, p.timeouts_to_judge);
                   }});
    out.push_back({"e1c.key-on-two-rows:" + c[6].name, [n = c[6].name](const samples& s, const parameters& p) {
                       return keys_doubled(s, n, p.timeouts_to_judge);
                   }});
    for (const auto& x : {c[6], c[7]})
        out.push_back({"e1c.loses-nothing:" + x.name, [n = x.name](const samples& s, const parameters& p) {
                           return loses_nothing(s, n, p.timeouts_to_judge);
                       }});
    for (const auto& x : {c[7], c[8]})
        out.push_back({"e1c.no-key-on-two-rows:" + x.name, [n = x.name](const samples& s, const parameters& p) {
                           return no_key_doubled(s, n, p.timeouts_to_judge);
                       }});
    out.push_back({"e1c.loses-nothing:" + c[8].name, [n = c[8].name](const samples& s, const parameters& p) {
                       return loses_nothing(s, n, p.timeouts_to_judge);
                   }});
    out.push_back({"e1c.upsert-control-exact", [n = c[9].name](const samples& s, const parameters&) {
                       return control_exact(s, n, experiment::table_kind::upsert);
                   }});
    // Without backpressure (the paced cells).
    out.push_back({"e1c.loses:" + c[10].name, [n = c[10].name](const samples& s, const parameters& p) {
                       return loses(s, n, p.timeouts_to_judge);
                   }});
    out.push_back({"e1c.loses-nothing:" + c[11].name, [n = c[11].name](const samples& s, const parameters& p) {
                       return loses_nothing(s, n, p.timeouts_to_judge);
                   }});
    out.push_back({"e1c.loses:" + c[12].name, [n = c[12].name](const samples& s, const parameters& p) {
                       return loses(s, n, p.timeouts_to_judge);
                   }});
    for (const auto& x : {c[13], c[14]})
        out.push_back({"e1c.key-on-two-rows:" + x.name, [n = x.name](const samples& s, const parameters& p) {
                           return keys_doubled(s, n, p.timeouts_to_judge);
                       }});
    out.push_back({"e1c.paced-without-backpressure",
                   [](const samples& s, const parameters&) { return paced_without_backpressure(s, 100, 500); }});
    out.push_back(
        {"e1c.paced-times-out-less", [](const samples& s, const parameters&) { return paced_times_out_less(s); }});
    // A kill right after a timed-out checkpoint (the kill cells).
    for (const auto& x : {c[15], c[16], c[17]})
        out.push_back({"e1c.loses-nothing:" + x.name, [n = x.name](const samples& s, const parameters& p) {
                           return loses_nothing(s, n, p.timeouts_to_judge);
                       }});
    out.push_back({"e1c.kill-after-timeout-no-duplicates",
                   [](const samples& s, const parameters&) { return kill_after_timeout_no_duplicates(s); }});
    out.push_back({"e1c.kills-applied", [](const samples& s, const parameters& p) {
                       return kills_applied(s, p.kills_per_run.value_or(0));
                   }});
    out.push_back({"e1c.no-duplicates", [](const samples& s, const parameters&) { return no_duplicates(s); }});
    out.push_back({"e1c.timeouts-applied",
                   [](const samples& s, const parameters& p) { return timeouts_applied(s, p.timeouts_to_judge); }});
    return out;
}

}  // namespace rosterrig::e1c

#endif
