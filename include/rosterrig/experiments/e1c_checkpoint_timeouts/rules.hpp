// rosterrig/experiments/e1c_checkpoint_timeouts/rules.hpp: experiment 1c's analysis (timeouts, records committed) and the verdict rules, rules()
#ifndef ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E1C_CHECKPOINT_TIMEOUTS_RULES_HPP

#include "rosterrig/experiments/e1c_checkpoint_timeouts/samples.hpp"

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

/// Why a cell's runs cannot answer, if they cannot.
inline std::optional<experiment::rule_verdict> cannot_answer(const std::vector<const cell_run*>& runs,
                                                             const std::string& name) {
    if (runs.empty()) return experiment::inconclusive(name + ": the cell did not run");
    for (const auto* r : runs) {
        if (!r->observed) return experiment::inconclusive(run_label(*r) + ": the table was not read back");
        if (r->upsert && !experiment::reports_upsert_on(r->upsert->table_in_force, "npi"))
            return experiment::inconclusive(run_label(*r) + ": the catalog does not report the table as upsert on npi");
        if (r->writer_parallelism < 2)
            return experiment::inconclusive(run_label(*r) + ": the writer ran at parallelism " +
                                            std::to_string(r->writer_parallelism) +
                                            "; the question needs several writer subtasks");
    }
    return std::nullopt;
}

/// What `timeouts_of` counted, said as what it is.
inline std::string timeouts_text(const cell_run& r) {
    const auto gaps = history_gaps(r);
    return std::to_string(timeouts_of(r)) + (gaps ? " or more" : "") + " timed-out checkpoints (Flink's history" +
           (gaps ? ", missing " + std::to_string(gaps) + " ids" : ", every id") + "; " +
           std::to_string(r.totals.failed) + " failed in Flink's count)";
}

/// A run's loss said in its table's unit.
inline std::string lost_text(const cell_run& r) {
    if (!r.upsert)
        return std::to_string(r.missing_seq) + " seqs missing in " + std::to_string(r.missing_runs.size()) + " ranges";
    const auto& u = *r.upsert;
    return std::to_string(lost_of(r)) + " of " + std::to_string(u.npis_expected) + " NPIs without their last record (" +
           std::to_string(u.npis_missing) + " on no row, " + std::to_string(u.npis_without_latest) +
           " only on older rows), " + std::to_string(u.rows_sharing_npi) + " rows on an NPI already on a row";
}

inline std::string loss_text(const cell_run& r) {
    return lost_text(r) + " after " + timeouts_text(r) + ", " + std::to_string(r.totals.completed) + " completed; " +
           std::to_string(r.store.data_unreferenced) + " data files in the store never committed";
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

/// The loss of a cell's runs: one run as `loss_text` says it; several with how
/// many repeats lost and the spread first, then each repeat.
inline std::string cell_loss_text(const std::vector<const cell_run*>& runs) {
    if (runs.size() == 1) return loss_text(*runs.front());
    const auto t = total_of(runs);
    std::string missing, each;
    for (const auto* r : runs) {
        missing += (missing.empty() ? "" : " / ") + std::to_string(lost_of(*r));
        each += "; #" + std::to_string(r->repeat) + ": " + loss_text(*r);
    }
    const std::string unit = runs.front()->upsert ? "NPIs without their last record " : "seqs missing ";
    return "lost in " + std::to_string(t.runs_that_lost) + " of " + std::to_string(t.runs) + " repeats (" + unit +
           missing + ") after " + std::to_string(t.timeouts) + " timed-out checkpoints in all" + each;
}

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
        if (!r->upsert) return experiment::inconclusive(run_label(*r) + ": " + why);
    return std::nullopt;
}

/// The reason a rule gives: the cell's loss, preceded, when keys are what it
/// judges, by how many repeats left an NPI on several rows.
inline std::string evidence_text(const std::vector<const cell_run*>& runs, measure m) {
    if (m == measure::lost) return cell_loss_text(runs);
    const auto t = total_of(runs);
    return "an NPI on several rows in " + std::to_string(t.runs_that_doubled) + " of " + std::to_string(t.runs) +
           " repeats; " + cell_loss_text(runs);
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
    const auto what = evidence_text(runs, m);
    if (amount_of(t, m) > 0) return e == expect::some ? held(what) : refuted(what);
    if (t.timeouts < enough)
        return inconclusive(what + "; at least " + std::to_string(enough) + " timeouts are needed" +
                            (e == expect::some ? " to refute" : ""));
    if (e == expect::some) return refuted(what);
    if (m == measure::keys_doubled) return held(what);
    return held(what + "; the per-timeout loss probability is at most " +
                report::fixed(stats::clopper_pearson_upper(0, t.timeouts), 3) + " (95%, one-sided, over " +
                std::to_string(t.timeouts) + " timeouts)");
}

/// "This cell loses records once checkpoints time out" (a missing seq, or an
/// NPI whose last record is on no row).
inline experiment::rule_verdict loses(const samples& s, const std::string& name, std::uint64_t enough) {
    return judge_cell(s, name, measure::lost, expect::some, enough);
}
/// "This cell loses nothing, however many checkpoints time out".
inline experiment::rule_verdict loses_nothing(const samples& s, const std::string& name, std::uint64_t enough) {
    return judge_cell(s, name, measure::lost, expect::none, enough);
}
/// "This upsert cell leaves an NPI on more than one row".
inline experiment::rule_verdict keys_doubled(const samples& s, const std::string& name, std::uint64_t enough) {
    return judge_cell(s, name, measure::keys_doubled, expect::some, enough);
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
    const auto what = evidence_text(runs, upsert ? measure::keys_doubled : measure::lost);
    if (t.lost > 0 || (upsert && t.keys_doubled > 0)) return refuted(what);
    if (t.timeouts > 0)
        return inconclusive(what + "; the control's checkpoints timed out, so it did not hold its condition");
    for (const auto* r : runs)
        if (r->totals.completed < 3)
            return inconclusive(what + "; fewer than 3 checkpoints completed in " + run_label(*r));
    return held(what);
}

/// "No cell duplicates": no job restarted, so no checkpoint is replayed.
inline experiment::rule_verdict no_duplicates(const samples& s) {
    using namespace experiment;
    if (s.runs.empty()) return inconclusive("no cell ran");
    std::string dup;
    std::uint64_t rows = 0;
    for (const auto& r : s.runs) {
        if (r.kills) continue;  // a kill cell restarts its job: e1c.kill-after-timeout-no-duplicates judges it
        if (!r.observed) return inconclusive(run_label(r) + ": the table was not read back");
        rows += r.rows;
        if (r.duplicate_rows > 0)
            dup += run_label(r) + ": " + std::to_string(r.duplicate_rows) + " duplicate seq rows; ";
    }
    return dup.empty() ? held("no duplicate seq row in " + std::to_string(s.runs.size()) + " cell runs (" +
                              std::to_string(rows) + " rows)")
                       : refuted(dup);
}

/// "The short timeout makes at least `enough` checkpoints time out in each
/// short-timeout cell, and the job never fails": the fault was applied, in
/// every run of every short-timeout cell.
inline experiment::rule_verdict timeouts_applied(const samples& s, std::uint64_t enough) {
    using namespace experiment;
    std::string short_of, what;
    std::size_t judged = 0;
    for (const auto& r : s.runs) {
        if (r.timeout_requested_ms >= 60'000) continue;        // the control
        if (r.feed_rate.value_or(0) > 0 || r.kills) continue;  // paced: the prediction is about backpressured cells
        ++judged;
        what += run_label(r) + ": " + timeouts_text(r) + " of " + std::to_string(r.totals.completed + r.totals.failed) +
                " checkpoints, " + std::to_string(r.restarts_reported) + " restarts; ";
        if (timeouts_of(r) < enough || r.restarts_reported != 0) short_of += run_label(r) + "; ";
    }
    if (judged == 0) return inconclusive("no short-timeout cell ran");
    return short_of.empty() ? held(what) : refuted(what + "short of it: " + short_of);
}

/// The source's backpressure over a run's drain (feed start to drained), or
/// nullopt when the run recorded no sample in it.
inline std::optional<experiment::backpressure_summary> backpressure_of(const cell_run& r) {
    if (!r.source_backpressure) return std::nullopt;
    return experiment::summarize_backpressure(*r.source_backpressure, 0, r.drained_ms);
}
inline std::string backpressure_text(const cell_run& r) {
    const auto b = backpressure_of(r);
    if (!b) return "no backpressure sample";
    return "source backpressured " + report::fixed(b->median_ms_per_s, 0) + " ms/s median, " +
           report::fixed(b->max_ms_per_s, 0) + " max (" + std::to_string(b->samples) + " samples)";
}

/// "The paced cells ran without backpressure and the cells produced at once
/// with it", by Flink's measure of the source: every paced run's median at or
/// below `paced_at_most`, every short-timeout run produced at once at or above
/// `at_once_at_least` (ms per second). Inconclusive when a run has no sample,
/// or no run of either kind ran.
inline experiment::rule_verdict paced_without_backpressure(const samples& s, double paced_at_most,
                                                           double at_once_at_least) {
    using namespace experiment;
    std::string what, wrong;
    std::size_t paced = 0, at_once = 0;
    for (const auto& r : s.runs) {
        if (r.timeout_requested_ms >= 60'000) continue;  // the controls: not asked
        const auto b = backpressure_of(r);
        if (!b) return inconclusive(run_label(r) + ": no backpressure sample during its drain");
        const bool is_paced = r.feed_rate.value_or(0) > 0;
        (is_paced ? paced : at_once) += 1;
        what += run_label(r) + ": " + backpressure_text(r) + "; ";
        if (is_paced ? b->median_ms_per_s > paced_at_most : b->median_ms_per_s < at_once_at_least)
            wrong += run_label(r) + "; ";
    }
    if (paced == 0 || at_once == 0)
        return inconclusive("needs paced runs and runs produced at once: " + std::to_string(paced) + " and " +
                            std::to_string(at_once));
    return wrong.empty() ? held(what) : refuted(what + "not as predicted: " + wrong);
}

/// The cell produced at once that a paced cell is the paced twin of.
inline std::optional<cell> at_once_twin(const cell& c) {
    for (const auto& x : cells())
        if (!x.paced && x.sink == c.sink && x.unaligned == c.unaligned && x.kind == c.kind &&
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
    std::string what, wrong;
    std::size_t pairs = 0;
    for (const auto& c : cells()) {
        if (!c.paced) continue;
        const auto twin = at_once_twin(c);
        if (!twin) continue;
        const auto a = runs_of(s, c.name), b = runs_of(s, twin->name);
        if (a.empty() || b.empty()) continue;
        const auto [ta, na] = timeout_share(a);
        const auto [tb, nb] = timeout_share(b);
        if (na == 0 || nb == 0) return inconclusive(c.name + ": no checkpoint counted");
        ++pairs;
        const double sa = static_cast<double>(ta) / static_cast<double>(na),
                     sb = static_cast<double>(tb) / static_cast<double>(nb);
        what += c.name + ": " + std::to_string(ta) + " of " + std::to_string(na) + " timed out, against " +
                std::to_string(tb) + " of " + std::to_string(nb) + " produced at once; ";
        if (!(sa < sb)) wrong += c.name + "; ";
    }
    if (pairs == 0) return inconclusive("no paced cell ran beside its twin produced at once");
    return wrong.empty() ? held(what) : refuted(what + "not less: " + wrong);
}

/// "A kill right after a timed-out checkpoint duplicates nothing": the kill
/// runs' duplicate seq rows. Inconclusive while no kill run killed.
inline experiment::rule_verdict kill_after_timeout_no_duplicates(const samples& s) {
    using namespace experiment;
    std::size_t runs = 0, kills = 0;
    std::string what, dup;
    for (const auto& r : s.runs) {
        if (!r.kills) continue;
        if (!r.observed) return inconclusive(run_label(r) + ": the table was not read back");
        ++runs, kills += r.kills->size();
        what += run_label(r) + ": " + std::to_string(r.kills->size()) + " kills, " + std::to_string(r.duplicate_rows) +
                " duplicate seq rows; ";
        if (r.duplicate_rows > 0) dup += run_label(r) + "; ";
    }
    if (kills == 0) return inconclusive("no kill run killed (" + std::to_string(runs) + " kill runs)");
    return dup.empty() ? held(what) : refuted(what + "duplicated: " + dup);
}

/// "The kills were applied as planned": every kill run made `per_run` kills,
/// each right after a checkpoint that timed out above the last restore, and
/// the same job ran again after each.
inline experiment::rule_verdict kills_applied(const samples& s, std::uint64_t per_run) {
    using namespace experiment;
    std::size_t runs = 0;
    std::string what, wrong;
    for (const auto& r : s.runs) {
        if (!r.kills) continue;
        ++runs;
        std::int64_t restored = -1;
        bool ok = r.kills->size() == per_run;
        std::string each;
        for (const auto& k : *r.kills) {
            ok = ok && k.timed_out_checkpoint > restored && k.kill.same_job_running;
            each += " ckpt " + std::to_string(k.timed_out_checkpoint) + " timed out, restored " +
                    std::to_string(k.kill.restored_checkpoint_id) + (k.kill.same_job_running ? "" : " (not running)");
            restored = std::max(restored, k.kill.restored_checkpoint_id);
        }
        what += run_label(r) + ": " + std::to_string(r.kills->size()) + " kills:" + each + "; ";
        if (!ok) wrong += run_label(r) + "; ";
    }
    if (runs == 0) return inconclusive("no kill cell ran");
    return wrong.empty() ? held(what) : refuted(what + "not as planned: " + wrong);
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
