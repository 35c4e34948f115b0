// rosterrig/experiments/e1_restart_replay.hpp: experiment 1, what a restart
// replays, as data: its parameters (full and quick), its four configurations,
// the fault plan, the sample schema, the analysis that turns raw per-kill
// records into the per-configuration table, the verdict rules, and the report
// section. Pure, so the driver, `--analyze`, the report and the claim tests all
// run the same code on the same saved samples.
#ifndef ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_HPP
#define ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/feed_pacing.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/job_template.hpp"
#include "rosterrig/experiment/kill_run.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/table_observation.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/check_json.hpp"
#include "rosterrig/stats/binomial_bounds.hpp"
#include "rosterrig/stats/summary.hpp"

namespace rosterrig::e1 {

using experiment::prediction_outcome;
// The kill run's record and its analysis are shared (experiment/kill_run.hpp).
using experiment::attribute;
using experiment::configuration_run;
using experiment::configuration_summary;
using experiment::describe;
using experiment::kill_sample;
using experiment::kill_sample_of;
using experiment::no_duplicates;
using experiment::no_replay;
using experiment::replays_of;
using experiment::record_table;
using experiment::restart_count_reads;
using experiment::restart_count_sentence;
using experiment::restart_counts_of;
using experiment::summarize;

struct parameters {
    std::uint64_t seed = 1;
    std::uint64_t events = 12000;
    std::uint64_t providers = 2000;
    std::uint32_t partitions = 4;
    std::uint64_t kills_per_configuration = 30;
    std::int64_t checkpoint_interval_ms = 2000;
    std::int64_t kill_delay_min_ms = 0;   // after the first checkpoint following a recovery
    std::int64_t kill_delay_max_ms = 4000;
    std::uint64_t offsets_events = 6000;  // part 2's feed
    experiment::warehouse warehouse = experiment::warehouse::s3;
    std::int64_t parallelism = 2;
    bool quick = false;
    /// The writer under test when it is a user's (--job FILE), planned before
    /// the run; absent: the rig's four configurations.
    std::optional<experiment::job_template> job;

    /// The full run: 30 kills bound the per-kill duplication probability at 0.095.
    static parameters full() { return {}; }
    /// For CI (under 3 minutes): two configurations (configurations_of), one
    /// kill each and a 3,000-event feed.
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        // One kill: a kill cycle (checkpoint, delay, recovery) took 12-22 s in CI;
        // every rule is still judged (inconclusive on the bound either way).
        p.kills_per_configuration = 1;
        // Delays over one checkpoint interval still cover its whole cycle.
        p.kill_delay_max_ms = 2000;
        p.events = 3000;
        p.providers = 500;
        p.offsets_events = 1000;
        return p;
    }
    roster_spec feed() const { return roster_feed(seed, events, providers, partitions); }
    /// Part 2's feed: its own seed, about six records per provider.
    roster_spec offsets_feed() const {
        roster_spec s;
        s.seed = seed + 1;
        s.events = offsets_events;
        s.providers = offsets_events / 6 > 0 ? offsets_events / 6 : 1;
        s.partitions = partitions;
        return s;
    }
};
BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, events, providers, partitions, kills_per_configuration, checkpoint_interval_ms,
                       kill_delay_min_ms, kill_delay_max_ms, offsets_events, warehouse, parallelism, quick, job))

/// The four configurations, in the order they run.
struct configuration {
    std::string name;
    experiment::checkpoint_mode mode;
    experiment::table_kind table;
};
inline std::vector<configuration> configurations() {
    using experiment::checkpoint_mode;
    using experiment::table_kind;
    return {{"at-least-once + append", checkpoint_mode::at_least_once, table_kind::append},
            {"exactly-once + append", checkpoint_mode::exactly_once, table_kind::append},
            {"at-least-once + upsert", checkpoint_mode::at_least_once, table_kind::upsert},
            {"exactly-once + upsert", checkpoint_mode::exactly_once, table_kind::upsert}};
}

/// The configurations a run covers: all four, or for a quick run (CI, under
/// 3 minutes) one of each table kind under opposite modes, which still runs
/// every code path; the predictions about the other two are then inconclusive.
inline std::vector<configuration> configurations_of(const parameters& p) {
    // A user's job is the one configuration: its table kind as planned, the
    // mode the session asks for (its own SET may change it; the run records
    // what Flink reports).
    if (p.job)
        return {{"your job: " + p.job->name, experiment::checkpoint_mode::exactly_once,
                 p.job->plan ? p.job->plan->kind : experiment::table_kind::append}};
    auto all = configurations();
    if (p.quick) return {all[0], all[3]};
    return all;
}

/// Every kill of the run, drawn before the first one from the seed.
inline experiment::fault_plan fault_plan(const parameters& p) {
    std::vector<std::string> names;
    for (const auto& c : configurations_of(p)) names.push_back(c.name);
    return experiment::plan_kills(p.seed ^ 0x6531u, names, p.kills_per_configuration, p.kill_delay_min_ms,
                                  p.kill_delay_max_ms, "the first checkpoint completed after the previous recovery");
}

// Part 2: committed offsets are monitoring.
struct offsets_step {
    std::string step;
    std::int64_t committed_offsets_sum = 0;
    std::int64_t end_offsets_sum = 0;
    std::uint64_t rows = 0;
    std::uint64_t duplicate_rows = 0;
    std::string job_id;
    std::int64_t exceptions = 0;              // entries in the job's exception history
    std::int64_t restored_checkpoint_id = -1;
};
BOOST_DESCRIBE_STRUCT(offsets_step, (),
                      (step, committed_offsets_sum, end_offsets_sum, rows, duplicate_rows, job_id, exceptions,
                       restored_checkpoint_id))

// The committed offsets, summed, watched after the restore: does the restored
// job's checkpointing write its position back over the rewind, and when?
struct offsets_watch_sample {
    std::int64_t ms_after_recovery = 0;
    std::int64_t committed_offsets_sum = 0;
    std::int64_t newest_checkpoint_id = -1;
};
BOOST_DESCRIBE_STRUCT(offsets_watch_sample, (), (ms_after_recovery, committed_offsets_sum, newest_checkpoint_id))

struct offsets_part {
    std::uint64_t events = 0;
    std::vector<offsets_step> steps;  // landed, rewound, restored_from_checkpoint, fresh_from_group_offsets
    std::vector<offsets_watch_sample> after_restore;  // every 0.5 s for the watch window
    std::optional<std::string> feed_sha256;  // of offsets_feed() as produced (absent in older runs)
};
BOOST_DESCRIBE_STRUCT(offsets_part, (), (events, steps, after_restore, feed_sha256))

struct samples {
    std::vector<configuration_run> configurations;
    offsets_part offsets;
    std::vector<prediction_outcome> predictions;
};
BOOST_DESCRIBE_STRUCT(samples, (), (configurations, offsets, predictions))

/// A configuration's run as it starts: what was asked, what Flink runs.
inline configuration_run start_run(const configuration& c, const parameters& p, const std::string& job,
                                   const experiment::writer_settings& w, double rate_per_second) {
    return experiment::start_kill_run(c.name, c.table, c.mode, p.checkpoint_interval_ms, p.events, job, w, rate_per_second);
}

/// The progress line at a configuration's end.
inline std::string end_text(const configuration_run& run) {
    return std::to_string(run.rows) + " rows, " + std::to_string(run.duplicate_rows) + " duplicate seq rows, " +
           std::to_string(run.rows_sharing_npi) + " sharing an NPI, " + std::to_string(run.equality_delete_files) +
           " equality delete files";
}

/// The progress line of a step of part 2.
inline std::string step_text(const offsets_step& x) {
    return x.step + ": committed offsets " + std::to_string(x.committed_offsets_sum) + " of " + std::to_string(x.end_offsets_sum) +
           ", rows " + std::to_string(x.rows) + ", duplicates " + std::to_string(x.duplicate_rows);
}

/// How the feed is paced: a quick run keeps 3 s of feed after the last kill, a full run 20 s.
inline experiment::feed_pacing pacing_of(const parameters& p) {
    experiment::feed_pacing f;
    if (p.quick) f.tail_s = 3.0;  // the drain after it waits ~10 s more for the offsets anyway
    return f;
}

/// The pipeline a configuration runs.
inline experiment::pipeline_config pipeline_of(const parameters& p, const configuration& c) {
    return {c.table, c.mode, experiment::iceberg_sink::flink_sink, p.warehouse, experiment::startup_mode::earliest_offset,
            p.checkpoint_interval_ms, p.parallelism};
}

/// The configuration's short name in its topic, table and job names.
inline std::string short_name_of(const configuration& c) {
    if (c.name.rfind("your job", 0) == 0) return "job_" + std::string(experiment::name_of(c.table));
    return std::string(c.mode == experiment::checkpoint_mode::at_least_once ? "alo_" : "eo_") + experiment::name_of(c.table);
}

/// The bound the predictions set: at most 0.10 per configuration.
inline constexpr double bound_target = experiment::kill_bound_target;

inline const configuration_run* find_configuration(const samples& s, const std::string& name) {
    for (const auto& c : s.configurations)
        if (c.name == name) return &c;
    return nullptr;
}

inline const offsets_step* find_step(const offsets_part& p, const std::string& step) {
    for (const auto& s : p.steps)
        if (s.step == step) return &s;
    return nullptr;
}

// ---- verdict rules ----------------------------------------------------------

inline constexpr double tight_bound_target = 0.030;

/// "No kill duplicated" where the table can show it: an append table keeps
/// every copy of a seq; an upsert table collapses a replayed row into the row
/// it repeats, so there a duplicate seq still refutes but none says nothing
/// (no bound), and the snapshots judge the replays (no_replay).
inline experiment::rule_verdict no_duplicates_seen(const configuration_run* run) {
    if (!run || run->table_kind != experiment::table_kind::upsert) return no_duplicates(run);
    if (run->duplicate_rows > 0)
        return experiment::refuted(std::to_string(run->duplicate_rows) + " duplicate seq rows in an upsert table");
    return experiment::inconclusive("no duplicate seq, but an upsert table collapses a replayed row into the row it "
                                    "repeats, so none could show; the snapshots judge it (e1.no-replay)");
}

/// The 0.030 bound for every configuration: on duplicate seqs for an append
/// table, on the snapshots (no_replay) for an upsert table.
inline experiment::rule_verdict tight_bound_everywhere(const samples& s) {
    return experiment::for_each_of(
        configurations(), [](const configuration& c) { return c.name; },
        [&](const configuration& c) {
            const auto* run = find_configuration(s, c.name);
            return c.table == experiment::table_kind::upsert ? no_replay(run, tight_bound_target)
                                                             : no_duplicates(run, tight_bound_target);
        },
        "no configurations are defined");
}

/// Where both can see, the snapshots agree with the rows: on an append
/// table, the records the job's snapshots added beyond the events sent are
/// its duplicate seq rows less its missing seqs. The check that makes the
/// snapshots' count trustworthy where the rows cannot be read (upsert).
inline experiment::rule_verdict snapshots_agree_with_rows(const samples& s) {
    using namespace experiment;
    std::vector<const configuration_run*> runs;
    for (const auto& c : s.configurations)
        if (c.table_kind == table_kind::append) runs.push_back(&c);
    if (runs.empty()) return inconclusive("no append configuration ran");
    return for_each_of(
        runs, [](const configuration_run* c) { return c->name; },
        [](const configuration_run* c) -> rule_verdict {
            const auto r = replays_of(*c);
            if (!r) return inconclusive("the run did not record its snapshots");
            std::int64_t missing = 0;
            for (const auto& m : c->missing_runs) missing += static_cast<std::int64_t>(m.size());
            const std::int64_t seen = static_cast<std::int64_t>(c->duplicate_rows) - missing;
            const std::string why = "snapshots: " + std::to_string(r->report.excess_records()) +
                                    " records beyond the events sent; rows: " + std::to_string(c->duplicate_rows) +
                                    " duplicate seq rows, " + std::to_string(missing) + " seqs missing";
            return r->report.excess_records() == seen ? held(why) : refuted(why);
        },
        "no append configuration ran");
}

inline experiment::rule_verdict upsert_holds_latest(const samples& s) {
    using namespace experiment;
    bool any = false, bad = false;
    std::string why;
    for (const auto& c : s.configurations) {
        if (c.table_kind != table_kind::upsert) continue;
        any = true;
        if (c.stale_rows || c.rows_sharing_npi || c.missing_npis || c.unexpected_rows) {
            bad = true;
            why += c.name + ": " + std::to_string(c.stale_rows) + " stale, " + std::to_string(c.rows_sharing_npi) +
                   " sharing, " + std::to_string(c.missing_npis) + " missing; ";
        }
    }
    if (!any) return inconclusive("no upsert configuration ran");
    return bad ? refuted(why) : held("every NPI row is the expected latest");
}

inline experiment::rule_verdict recovery_ignores_offsets(const samples& s) {
    using namespace experiment;
    auto* rewound = find_step(s.offsets, "rewound");
    auto* restored = find_step(s.offsets, "restored_from_checkpoint");
    if (!rewound || !restored) return inconclusive("part 2 did not run");
    if (rewound->committed_offsets_sum != 0)
        return inconclusive("the rewind did not take: committed offsets summed to " +
                            std::to_string(rewound->committed_offsets_sum));
    const bool ok = restored->duplicate_rows == 0 && restored->committed_offsets_sum == restored->end_offsets_sum;
    std::string why = std::to_string(restored->duplicate_rows) + " duplicates after the restore; offsets " +
                      std::to_string(restored->committed_offsets_sum) + " of " +
                      std::to_string(restored->end_offsets_sum);
    return ok ? held(why) : refuted(why);
}

inline experiment::rule_verdict fresh_job_replays_log(const samples& s) {
    using namespace experiment;
    auto* fresh = find_step(s.offsets, "fresh_from_group_offsets");
    if (!fresh) return inconclusive("part 2 did not run");
    std::string why = std::to_string(fresh->duplicate_rows) + " duplicates for " + std::to_string(s.offsets.events) +
                      " events";
    return fresh->duplicate_rows == s.offsets.events ? held(why) : refuted(why);
}

/// A user's job (--job) under the kills: its table ends as the feed says —
/// append: no seq twice and none missing; upsert: each NPI once, holding its
/// latest record (a replay there collapses, so the table's end state is what
/// can be seen) — and enough kills to bound the chance a kill breaks it.
inline experiment::rule_verdict your_job_lands_exactly_once(const samples& s) {
    using namespace experiment;
    std::vector<const configuration_run*> jobs;
    for (const auto& c : s.configurations)
        if (c.name.rfind("your job", 0) == 0) jobs.push_back(&c);
    if (jobs.empty()) return inconclusive("this run ran the rig's own configurations; only a --job run has your job to judge");
    return for_each_of(
        jobs, [](const configuration_run* c) { return c->name; },
        [](const configuration_run* c) -> rule_verdict {
            if (c->table_kind == table_kind::append) {
                if (!c->missing_runs.empty())
                    return refuted(std::to_string(c->missing_runs.size()) + " runs of seqs missing, " +
                                   std::to_string(c->duplicate_rows) + " duplicate rows");
                return no_duplicates(c);
            }
            const auto wrong = c->stale_rows + c->rows_sharing_npi + c->missing_npis + c->unexpected_rows;
            const std::string state = std::to_string(c->stale_rows) + " stale, " + std::to_string(c->rows_sharing_npi) +
                                      " sharing an NPI, " + std::to_string(c->missing_npis) + " NPIs missing, " +
                                      std::to_string(c->unexpected_rows) + " unexpected rows after " +
                                      std::to_string(c->kills.size()) + " kills";
            if (wrong > 0) return refuted(state);
            if (c->kills.empty()) return inconclusive(state + ": no kill to judge");
            const double bound = stats::clopper_pearson_upper(0, c->kills.size());
            const std::string why = state + "; 95% upper bound on a kill breaking the table " + std::to_string(bound);
            return bound <= kill_bound_target ? held(why) : inconclusive(why + ": too few kills to say");
        },
        "no job ran");
}

using rule = experiment::rule<samples, parameters>;

/// One rule per prediction id, exactly.
inline std::vector<rule> rules() {
    std::vector<rule> out;
    for (const auto& c : configurations())
        out.push_back({"e1.no-duplicates:" + c.name, [name = c.name](const samples& s, const parameters&) {
                           return no_duplicates_seen(find_configuration(s, name));
                       }});
    for (const auto& c : configurations())
        if (c.table == experiment::table_kind::upsert)
            out.push_back({"e1.no-replay:" + c.name, [name = c.name](const samples& s, const parameters&) {
                               return no_replay(find_configuration(s, name));
                           }});
    out.push_back({"e1.snapshots-agree-with-rows",
                   [](const samples& s, const parameters&) { return snapshots_agree_with_rows(s); }});
    out.push_back({"e1.tight-bound", [](const samples& s, const parameters&) { return tight_bound_everywhere(s); }});
    out.push_back({"e1.upsert-holds-latest", [](const samples& s, const parameters&) { return upsert_holds_latest(s); }});
    out.push_back({"e1.recovery-ignores-offsets",
                   [](const samples& s, const parameters&) { return recovery_ignores_offsets(s); }});
    out.push_back({"e1.fresh-job-replays-log",
                   [](const samples& s, const parameters&) { return fresh_job_replays_log(s); }});
    out.push_back({"e1.your-job-lands-exactly-once",
                   [](const samples& s, const parameters&) { return your_job_lands_exactly_once(s); }});
    return out;
}

// ---- report ------------------------------------------------------------------

/// A configuration's recoveries, phase by phase (kills that recorded them),
/// ending with the driver's own "running again".
inline std::vector<experiment::phase_list> recoveries_of(const configuration_run& c) {
    std::vector<experiment::phase_list> out;
    for (const auto& k : c.kills)
        if (k.recovery) {
            out.push_back(experiment::recovery_phases(k.killed_at_ms, k.restarting_at_ms,
                                                      k.killed_at_ms + k.taskmanager_back_after_ms, *k.recovery));
            out.back().emplace_back("driver_sees_running", k.job_running_after_ms >= 0
                                                               ? std::optional<std::int64_t>(k.job_running_after_ms)
                                                               : std::nullopt);
        }
    return out;
}

/// Where each configuration's recoveries spent their time, phase by phase
/// (median / max ms after the kill); empty for runs that did not record it.
inline std::string recovery_table(const samples& s) {
    std::vector<std::pair<std::string, std::vector<experiment::phase_summary>>> rows;
    for (const auto& c : s.configurations)
        if (const auto recoveries = recoveries_of(c); !recoveries.empty())
            rows.emplace_back(c.name, experiment::summarize_phases(recoveries));
    if (rows.empty()) return {};
    std::string settings;  // as the first configuration's job reported them
    if (!s.configurations.empty() && s.configurations.front().recovery_settings) {
        const auto& r = *s.configurations.front().recovery_settings;
        settings = " Recovery settings in force, as the processes reported them: " +
                   std::to_string(r.taskmanagers_registered) + " TaskManagers registered (" +
                   std::to_string(r.taskmanagers_sharing_classes) + " mapping the class archive), heartbeat every " +
                   r.heartbeat_interval + " ms (lost after " + r.heartbeat_rpc_failure_threshold +
                   " failed RPCs), REST views refreshed every " + r.rest_refresh_interval +
                   " ms, the supervisor's pause before restarting a JVM " +
                   (r.supervisor_restart_pause.empty() ? std::string("1") : r.supervisor_restart_pause) + " s.";
        if (const auto& rs = s.configurations.front().restart_strategy)
            settings += " Restart strategy " + rs->type + ", delay " + rs->delay + ".";
    }
    // Columns by phase name, in recovery order: a phase no kill of a
    // configuration recorded is "n/a" there, not a shift of the cells after it.
    std::vector<std::string> phases;
    const auto first_recoveries = recoveries_of(*find_configuration(s, rows.front().first));  // kept: the loop walks into it
    for (const auto& [phase, at] : first_recoveries.front())
        for (const auto& [name, summaries] : rows)
            if (std::any_of(summaries.begin(), summaries.end(), [&](const auto& p) { return p.phase == phase; }) &&
                std::find(phases.begin(), phases.end(), phase) == phases.end())
                phases.push_back(phase);
    std::vector<std::string> header{"Configuration"};
    for (const auto& p : phases) header.push_back(p + " (median / max ms)");
    report::markdown_table t{header};
    for (const auto& [name, summaries] : rows) {
        std::vector<std::string> cells{name};
        for (const auto& phase : phases) {
            std::string cell = "n/a";
            for (const auto& p : summaries)
                if (p.phase == phase)
                    cell = report::fixed(p.median_ms, 0) + " / " + report::fixed(p.max_ms, 0) +
                           (p.recoveries < 10 ? " (" + std::to_string(p.recoveries) + (p.recoveries == 1 ? " kill)" : " kills)") : "");
            cells.push_back(cell);
        }
        t.row(cells);
    }
    return "\nWhere a recovery's time goes, from the kill: Flink's exception history (failure seen), the job's "
           "RESTARTING time, the supervisor's new JVM and the JobManager's list of TaskManagers (both polled every "
           "100 ms until the new JVM is up, so a registration after that is not seen: n/a), and the new attempt's first "
           "DEPLOYING, restore and last RUNNING times as Flink reports them." +
           settings + "\n\n" + t.render();
}

/// A configuration's one-sided 95% upper bound on the chance that a kill
/// breaks exactly-once, from what its table kind can show: duplicate seqs in
/// an append table, the snapshots in an upsert table (none when they were not
/// recorded or a replay leaves only an "at least" count).
inline std::optional<double> kill_bound_of(const configuration_run& c) {
    if (c.table_kind == experiment::table_kind::append) return summarize(c).upper_bound_95;
    const auto r = replays_of(c);
    if (!r || !r->report.clean()) return std::nullopt;
    return stats::clopper_pearson_upper(0, r->kills);
}

/// The README section: the per-configuration table, the offsets part, the
/// verdicts and the provenance, every figure derived from the saved samples.
inline std::string report_section(const result::result_envelope& env, const samples& s, const parameters& params) {
    using report::fixed;
    using report::with_thousands;
    auto n = [](std::uint64_t v) { return with_thousands(static_cast<long long>(v)); };
    std::string o = "Each configuration: one job fed " + n(params.events) +
                    " roster events at a steady rate, the TaskManager SIGKILLed " +
                    std::to_string(params.kills_per_configuration) + " times at randomized moments (0 to " +
                    std::to_string(params.kill_delay_max_ms) +
                    " ms after the first checkpoint of each recovery), checkpoint interval " +
                    std::to_string(params.checkpoint_interval_ms) + " ms, " + experiment::name_of(params.warehouse) +
                    " warehouse" + (params.quick ? ", **quick run**" : "") + ".\n\n";
    report::markdown_table t{{"Configuration", "Mode in force (Flink)", "Writer input", "Kills", "Kills with duplicate seqs",
                              "Duplicates (min / median / max per kill)", "Kills that replayed (snapshots)",
                              "Records the snapshots added beyond the events sent", "Checkpoints committed twice",
                              "95% upper bound (per kill)", "Rows", "Duplicate seq rows",
                              "Rows sharing an NPI", "Stale upsert rows", "Data files", "Equality delete files",
                              "Failures in Flink's exception history"}};
    for (const auto& c : s.configurations) {
        auto sum = summarize(c);
        const bool upsert = c.table_kind == experiment::table_kind::upsert;
        const auto replays = replays_of(c);
        const auto bound = kill_bound_of(c);
        t.row({c.name, c.checkpoint_mode_in_force + ", " + std::to_string(c.checkpoint_interval_in_force_ms) + " ms",
               c.writer_input, std::to_string(sum.kills),
               upsert ? std::string("n/a: collapsed") : std::to_string(sum.kills_with_duplicates),
               upsert ? std::string("n/a: collapsed")
                      : n(sum.total_duplicates) + " (" + fixed(sum.min_per_kill, 0) + " / " + fixed(sum.median_per_kill, 1) +
                            " / " + fixed(sum.max_per_kill, 0) + ")",
               replays ? (replays->report.clean() ? "0" : "at least " + std::to_string(replays->kills_replayed_at_least()))
                       : std::string("not recorded"),
               replays ? with_thousands(replays->report.excess_records()) : std::string("not recorded"),
               replays ? std::to_string(replays->report.replayed_watermarks.size()) : std::string("not recorded"),
               bound ? fixed(*bound, 4) : std::string("-"), n(c.rows), n(c.duplicate_rows), n(c.rows_sharing_npi),
               c.table_kind == experiment::table_kind::upsert ? n(c.stale_rows) : std::string("n/a"),
               std::to_string(c.data_files), std::to_string(c.equality_delete_files),
               c.exceptions_recorded ? std::to_string(*c.exceptions_recorded) : std::string("-")});
    }
    o += t.render();
    std::uint64_t kills = 0, duplicate_rows = 0, missing_runs = 0, fewest = 0, unbounded = 0;
    double largest_bound = 0;
    for (const auto& c : s.configurations) {
        const auto sum = summarize(c);
        fewest = kills == 0 ? sum.kills : std::min(fewest, sum.kills);
        kills += sum.kills, duplicate_rows += c.duplicate_rows, missing_runs += c.missing_runs.size();
        if (const auto b = kill_bound_of(c)) largest_bound = std::max(largest_bound, *b);
        else ++unbounded;
    }
    o += "\nIn all: " + n(kills) + " kills over " + std::to_string(s.configurations.size()) + " configurations (at least " +
         n(fewest) + " each), " + n(duplicate_rows) + " duplicate seq rows, " + n(missing_runs) +
         " missing runs; the largest one-sided 95% upper bound on the chance that a kill duplicates (append, from the "
         "rows) or replays (upsert, from the snapshots) is " + fixed(largest_bound, 4) +
         (unbounded ? " over the configurations that have one (" + std::to_string(unbounded) + " without: " +
                          "an upsert run whose snapshots were not recorded, or a replay)"
                    : std::string()) +
         ". An upsert table collapses a replayed row into the row it repeats, so its duplicate seqs say nothing; its "
         "replays are judged from the catalog's snapshots: the records they added against the events sent, and a "
         "checkpoint committed twice.\n";
    o += "\n" + restart_count_sentence(restart_counts_of(s.configurations, [](const configuration_run& c) -> const configuration_run& { return c; }));
    o += recovery_table(s);
    o += "\nSink: " + (s.configurations.empty() ? std::string("-") : s.configurations.front().sink) +
         ". Rows sharing an NPI are expected in append tables (a provider is asserted about six times); "
         "in upsert tables they would be a failure.\n\n";
    o += "Committed offsets are monitoring (" + n(s.offsets.events) + " events):\n\n";
    report::markdown_table steps{{"Step", "Committed offsets, summed", "End offsets, summed", "Rows (Trino)", "Duplicate rows"}};
    for (const auto& st : s.offsets.steps)
        steps.row({st.step, with_thousands(st.committed_offsets_sum), with_thousands(st.end_offsets_sum), n(st.rows),
                   n(st.duplicate_rows)});
    o += steps.render();
    if (!s.offsets.after_restore.empty()) {
        const auto& first = s.offsets.after_restore.front();
        const auto& last = s.offsets.after_restore.back();
        o += "\nAfter the restore, the committed offsets were watched every 0.5 s: they read " +
             with_thousands(first.committed_offsets_sum) + " at " + fixed(first.ms_after_recovery / 1000.0, 1) +
             " s and " + with_thousands(last.committed_offsets_sum) + " at " + fixed(last.ms_after_recovery / 1000.0, 1) +
             " s, while the job completed checkpoints " + std::to_string(first.newest_checkpoint_id) + " to " +
             std::to_string(last.newest_checkpoint_id) + ".\n";
    }
    return o + "\n" + report::verdict_table(s.predictions) + "\n" + report::provenance(env);
}

/// Experiment 1 as the runner, the report and the claim tests see it.
struct definition {
    using parameters = e1::parameters;
    using samples = e1::samples;
    static constexpr const char* id = "e1_restart_replay";
    static constexpr const char* tag = "e1";
    static constexpr const char* predictions_file = "predictions/e1_restart_replay.json";
    static constexpr const char* results_file = "results/e1_restart_replay.json";
    static constexpr experiment::hooks<parameters> hooks{
        .warehouse = &parameters::warehouse,
        // The session a user's job template is planned and run in (--job FILE).
        .job_config = [](const parameters& p) { return pipeline_of(p, configurations_of(p).front()); }};
    static std::vector<rule> rules() { return e1::rules(); }
    static experiment::fault_plan fault_plan(const parameters& p) { return e1::fault_plan(p); }
    static std::string report_section(const result::result_envelope& env, const samples& s, const parameters& p) {
        return e1::report_section(env, s, p);
    }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

} // namespace rosterrig::e1

#endif
