// rosterrig/experiments/e8_catalog_commit_faults/parameters.hpp: experiment 8's cells, writers, parameters, fault plan, status_of and usage_problem.
// The fault plan, status_of and usage_problem came after the rules in the old single
// header; they need only the parameters, so they are here, unchanged.
#ifndef ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_PARAMETERS_HPP
#define ROSTERRIG_EXPERIMENTS_E8_CATALOG_COMMIT_FAULTS_PARAMETERS_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>
#include <boost/json.hpp>

#include "rosterrig/experiment/hooks.hpp"
#include "rosterrig/check/commit_replay.hpp"
#include "rosterrig/result/check_json.hpp"  // snapshot_entry, described
#include "rosterrig/check/missing_ranges.hpp"
#include "rosterrig/experiment/catalog_request.hpp"
#include "rosterrig/experiment/enum_names.hpp"
#include "rosterrig/experiment/fault_plan.hpp"
#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/job_template.hpp"
#include "rosterrig/experiment/kill_record.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"
#include "rosterrig/experiment/prediction_outcome.hpp"
#include "rosterrig/experiment/rule.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/random/splitmix64.hpp"
#include "rosterrig/random/uniform_int.hpp"
#include "rosterrig/report/line_plot.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/result_section.hpp"
#include "rosterrig/result/envelope.hpp"
#include "rosterrig/stats/binomial_bounds.hpp"

namespace rosterrig::e8 {

using experiment::prediction_outcome;

/// What a trial does to the k-th commit POST after the table settled.
enum class cell {
    lose_reply,          ///< forwarded, applied, the client's connection dropped unanswered
    status_unforwarded,  ///< answered 500/502/503/504 by the proxy; the catalog never sees it
    forward_then_504,    ///< forwarded, applied, answered 504
    zombie_409,  ///< A delayed, the committer's TaskManager killed, the replay B delayed so A lands first: B gets 409
    zombie_refresh,  ///< A delayed, the kill, every table GET delayed: A lands between the restored load and the replay's refresh
    /// forwarded and applied, its reply held; the committer's TaskManager killed; the reply
    /// released after the restored job committed a later checkpoint
    held_kill_late_release,
    /// forwarded and applied, its reply held past the client's socket timeout (a table
    /// run with the short timeout) and let go at the hold's deadline
    held_past_timeout,
    /// forwarded and applied, its reply held for less than the client's socket timeout
    /// and let go at the hold's deadline: the committer waits
    held_no_timeout,
    /// A delayed briefly and the committer's TaskManager killed as A arrives: A lands
    /// before the restored job reads the table
    zombie_early,
    /// A delayed past the restored job's replay (no rule B): A lands after the replay
    zombie_late,
};
BOOST_DESCRIBE_ENUM(cell, lose_reply, status_unforwarded, forward_then_504, zombie_409, zombie_refresh,
                    held_kill_late_release, held_past_timeout, held_no_timeout, zombie_early, zombie_late)

/// The prediction-id stem of a cell (e8.<stem>:<writer>).
inline std::string stem_of(cell c) {
    switch (c) {
        case cell::lose_reply:
            return "lose-reply";
        case cell::status_unforwarded:
            return "status-unforwarded";
        case cell::forward_then_504:
            return "forward-then-504";
        case cell::zombie_409:
            return "zombie-409";
        case cell::zombie_refresh:
            return "zombie-refresh";
        case cell::held_kill_late_release:
            return "held-kill-late-release";
        case cell::held_past_timeout:
            return "held-past-timeout";
        case cell::held_no_timeout:
            return "held-no-timeout";
        case cell::zombie_early:
            return "zombie-early";
        case cell::zombie_late:
            return "zombie-late";
    }
    return "?";
}
/// The zombies that land inside the window (docs/E8_DESIGN.md §3): after the
/// restored committer read the table and before its replay was applied.
inline bool is_zombie(cell c) { return c == cell::zombie_409 || c == cell::zombie_refresh; }
/// The zombies timed to land outside it: before the restored read, or after the replay.
inline bool outside_window(cell c) { return c == cell::zombie_early || c == cell::zombie_late; }
/// The cells whose hit reply the proxy holds after the catalog applied the commit.
inline bool is_held(cell c) {
    return c == cell::held_kill_late_release || c == cell::held_past_timeout || c == cell::held_no_timeout;
}
/// The cells whose trial SIGKILLs the committer's TaskManager.
inline bool has_kill(cell c) { return is_zombie(c) || outside_window(c) || c == cell::held_kill_late_release; }
/// A cell whose fault, by the 1.10.1 code, doubles the checkpoint it hits
/// (docs/E8_DESIGN.md §3): a commit that lands after the restored committer
/// read the table. A held reply's commit landed before the kill.
inline bool predicted_to_double(cell c) { return is_zombie(c); }

/// One writer under test: the prediction-id suffix and the sink it selects.
struct writer_kind {
    std::string name;  ///< sinkv2, flinksink
    experiment::iceberg_sink sink = experiment::iceberg_sink::sink_v2;
};
inline std::vector<writer_kind> known_writers() {
    return {{"sinkv2", experiment::iceberg_sink::sink_v2}, {"flinksink", experiment::iceberg_sink::flink_sink}};
}
inline std::optional<writer_kind> writer_named(const std::string& name) {
    for (const auto& w : known_writers())
        if (w.name == name) return w;
    return std::nullopt;
}

/// How many trials of a cell a writer runs.
struct cell_count {
    cell kind = cell::lose_reply;
    std::uint64_t trials = 0;
    friend bool operator==(const cell_count&, const cell_count&) = default;
};
BOOST_DESCRIBE_STRUCT(cell_count, (), (kind, trials))

/// The table a writer's run commits to: its kind, and whether its commits
/// retry (the table property commit.retry.num-retries = 0 turns SnapshotProducer's
/// retry off, the control for the zombie-409 recipe), or whether the writer's
/// catalog client has the short socket timeout (held-past-timeout's runs).
enum class table_variant {
    append,
    upsert,
    append_no_retries,
    upsert_no_retries,
    append_short_timeout,
    upsert_short_timeout
};
BOOST_DESCRIBE_ENUM(table_variant, append, upsert, append_no_retries, upsert_no_retries, append_short_timeout,
                    upsert_short_timeout)
inline experiment::table_kind kind_of(table_variant v) {
    return v == table_variant::upsert || v == table_variant::upsert_no_retries ||
                   v == table_variant::upsert_short_timeout
               ? experiment::table_kind::upsert
               : experiment::table_kind::append;
}
inline bool retries_off(table_variant v) {
    return v == table_variant::append_no_retries || v == table_variant::upsert_no_retries;
}
inline bool short_client_timeout(table_variant v) {
    return v == table_variant::append_short_timeout || v == table_variant::upsert_short_timeout;
}

/// A writer run's name: the writer on the append table ("sinkv2", as before
/// there were others), else the writer and the table ("sinkv2-upsert-no-retries").
inline std::string run_name(const std::string& writer, table_variant v) {
    if (v == table_variant::append) return writer;
    std::string t = experiment::name_of(v);
    std::replace(t.begin(), t.end(), '_', '-');
    return writer + "-" + t;
}

/// The cells a writer runs on one more table after its append run.
struct table_cells {
    table_variant table = table_variant::upsert;
    std::vector<cell_count> cells;
    friend bool operator==(const table_cells&, const table_cells&) = default;
};
BOOST_DESCRIBE_STRUCT(table_cells, (), (table, cells))

/// The delays a zombie trial uses (fast recovery profile, docs/E8_DESIGN.md §5).
struct zombie_timing {
    std::int64_t a_ms = 0;    ///< rule A: the hit commit POST waits this long before it is forwarded
    std::int64_t b_ms = 0;    ///< zombie_409: the replay's POST waits this long
    std::int64_t get_ms = 0;  ///< zombie_refresh: every table GET waits this long until the heal
    friend bool operator==(const zombie_timing&, const zombie_timing&) = default;
};
BOOST_DESCRIBE_STRUCT(zombie_timing, (), (a_ms, b_ms, get_ms))

struct parameters {
    std::uint64_t seed = 8;
    std::uint64_t providers = 500;
    std::uint32_t partitions = 2;
    double rate = 50;  ///< events per second, so every checkpoint carries data
    std::int64_t checkpoint_interval_ms = 2000;
    std::int64_t socket_timeout_ms = 600000;  ///< rest.client.socket-timeout-ms: longer than every delay
    std::vector<std::string> writers = {"sinkv2", "flinksink"};
    std::vector<cell_count> cells;  ///< per writer, on its append table, in this order
    /// Per writer, after its append run: more tables and their cells (absent: the append table only).
    std::optional<std::vector<table_cells>> more_tables;
    zombie_timing zombie_409_timing{20000, 20000, 0};
    zombie_timing zombie_refresh_timing{35000, 0, 20000};
    /// held_kill_late_release: the hold's deadline, past the restored job's
    /// first commit (the trial releases the reply then, or gives up at it).
    /// Absent in runs from before the cell.
    std::optional<std::int64_t> hold_deadline_ms = 180000;
    std::int64_t hold_deadline() const { return hold_deadline_ms.value_or(180000); }
    /// The catalog client's socket timeout on the *-short-timeout tables, and how
    /// long held-past-timeout holds a reply (past it); how long held-no-timeout
    /// holds one (under socket_timeout_ms); A's delay in zombie-early and
    /// zombie-late. Absent in runs from before those cells: the defaults below.
    std::optional<std::int64_t> short_socket_timeout_ms, held_past_timeout_ms, held_no_timeout_ms, zombie_early_ms,
        zombie_late_ms;
    std::int64_t short_socket_timeout() const { return short_socket_timeout_ms.value_or(10000); }
    std::int64_t held_past_timeout() const { return held_past_timeout_ms.value_or(30000); }
    std::int64_t held_no_timeout() const { return held_no_timeout_ms.value_or(20000); }
    std::int64_t zombie_early() const { return zombie_early_ms.value_or(500); }
    std::int64_t zombie_late() const { return zombie_late_ms.value_or(60000); }
    /// Writes the five settings above into the parameters (the run's record says them).
    void record_cell_timings() {
        short_socket_timeout_ms = short_socket_timeout(), held_past_timeout_ms = held_past_timeout(),
        held_no_timeout_ms = held_no_timeout(), zombie_early_ms = zombie_early(), zombie_late_ms = zombie_late();
    }
    /// rest.client.socket-timeout-ms for a writer's run on `table`.
    std::int64_t socket_timeout_of(table_variant table) const {
        return short_client_timeout(table) ? short_socket_timeout() : socket_timeout_ms;
    }
    /// How long the hit rule of `c` holds the request back (http_delay) or its
    /// reply (http_hold_reply): the deadline of a hold nobody releases earlier.
    std::int64_t hit_duration_ms(cell c) const {
        switch (c) {
            case cell::zombie_409:
                return zombie_409_timing.a_ms;
            case cell::zombie_refresh:
                return zombie_refresh_timing.a_ms;
            case cell::zombie_early:
                return zombie_early();
            case cell::zombie_late:
                return zombie_late();
            case cell::held_kill_late_release:
                return hold_deadline();
            case cell::held_past_timeout:
                return held_past_timeout();
            case cell::held_no_timeout:
                return held_no_timeout();
            default:
                return 0;
        }
    }
    std::vector<unsigned> statuses = {500, 502, 503, 504};  ///< status_unforwarded draws one per trial
    std::string repro;                                      ///< a --repro run: its name
    bool quick = false;
    experiment::warehouse warehouse = experiment::warehouse::s3;
    /// The writer under test when it is a user's (--job FILE), planned before
    /// the run: it runs `cells` on the table its template makes, in place of
    /// the rig's writers and their more tables.
    std::optional<experiment::job_template> job;

    static parameters full() {
        parameters p;
        // Every cell on the append and the upsert table at the n its prediction
        // asks per table kind (rules.hpp, asked_trials: 30 for the lost reply,
        // the unforwarded 5xx and the held reply with a kill, whose one-sided
        // bound needs them; 10 and 5 for the rest), the zombie-409 recipe with
        // the commit's retry off on both (and the refresh recipe with it, as its
        // prediction asks), held-past-timeout on both with the
        // short client timeout, and held-no-timeout on the append table. About
        // five to six hours on this machine (2 vCPUs): a trial without a kill
        // takes about 10 s, a held reply 25 to 45 s, one with a kill 35 to 75 s.
        // A stopped run goes on with --resume.
        const std::vector<cell_count> every{{cell::zombie_409, 10},       {cell::zombie_refresh, 5},
                                            {cell::lose_reply, 30},       {cell::status_unforwarded, 30},
                                            {cell::forward_then_504, 10}, {cell::held_kill_late_release, 30},
                                            {cell::zombie_early, 5},      {cell::zombie_late, 5}};
        p.cells = every;
        p.cells.push_back({cell::held_no_timeout, 5});  // asked per writer, not per table kind
        // The refresh recipe doubles with the retry off too (its prediction asks 5 more); zombie-409 does not.
        const std::vector<cell_count> without_retry{{cell::zombie_409, 5}, {cell::zombie_refresh, 5}};
        p.more_tables =
            std::vector<table_cells>{{table_variant::upsert, every},
                                     {table_variant::append_no_retries, without_retry},
                                     {table_variant::upsert_no_retries, without_retry},
                                     {table_variant::append_short_timeout, {{cell::held_past_timeout, 10}}},
                                     {table_variant::upsert_short_timeout, {{cell::held_past_timeout, 10}}}};
        p.record_cell_timings();
        return p;
    }
    static parameters quick_run() {
        parameters p;
        p.quick = true;
        p.writers = {"sinkv2"};
        p.cells = {{cell::lose_reply, 1},
                   {cell::status_unforwarded, 1},
                   {cell::zombie_409, 1},
                   {cell::held_kill_late_release, 1}};
        p.more_tables = std::vector<table_cells>{{table_variant::upsert, {{cell::lose_reply, 1}}}};
        p.statuses = {503};
        p.record_cell_timings();
        return p;
    }
    /// The minimal reproductions (docs/E8_DESIGN.md §6): one writer, one zombie
    /// cell, three trials; short, so quick (never promoted to results/).
    static std::vector<std::string> repro_names() {
        return {"sinkv2-zombie-409", "flinksink-zombie-409", "sinkv2-zombie-refresh", "flinksink-zombie-refresh"};
    }
    static std::optional<parameters> repro_run(const std::string& name) {
        const auto names = repro_names();
        if (std::find(names.begin(), names.end(), name) == names.end()) return std::nullopt;
        parameters p;
        p.quick = true;
        p.repro = name;
        p.writers = {name.substr(0, name.find('-'))};
        p.cells = {{name.ends_with("409") ? cell::zombie_409 : cell::zombie_refresh, 3}};
        p.record_cell_timings();
        return p;
    }
    /// The writers that run: the rig's, or "job" for a user's.
    std::vector<std::string> writer_names() const { return job ? std::vector<std::string>{"job"} : writers; }
    /// Each run of one writer, in the order they run: the append table's, then
    /// more_tables'; a user's job, on the table kind its template was planned to make.
    std::vector<table_cells> tables() const {
        if (job)
            return {{job->plan && job->plan->kind == experiment::table_kind::upsert ? table_variant::upsert
                                                                                    : table_variant::append,
                     cells}};
        std::vector<table_cells> out{{table_variant::append, cells}};
        if (more_tables) out.insert(out.end(), more_tables->begin(), more_tables->end());
        return out;
    }
    /// How long the longest run's trials take, roughly (s), for the feed's length (every run reads the same feed).
    std::uint64_t expected_seconds() const {
        std::uint64_t longest = 0;
        for (const auto& t : tables()) {
            std::uint64_t run = 60;  // the job's start, the settle and the drain
            for (const auto& c : t.cells)
                run += c.trials * (c.kind == cell::zombie_refresh || c.kind == cell::zombie_late ? 110
                                   : has_kill(c.kind)                                            ? 80
                                   : c.kind == cell::held_past_timeout                           ? 60
                                   : c.kind == cell::held_no_timeout                             ? 45
                                                                                                 : 35);
            longest = std::max(longest, run);
        }
        return longest;
    }
    /// Half as long again as expected: a trial never waits for commits that cannot come (the rest goes at full speed at the end).
    std::uint64_t events() const {
        return static_cast<std::uint64_t>(rate * 1.5 * static_cast<double>(expected_seconds()));
    }
    roster_spec feed() const { return roster_feed(seed, events(), providers, partitions); }
};

BOOST_DESCRIBE_STRUCT(parameters, (),
                      (seed, providers, partitions, rate, checkpoint_interval_ms, socket_timeout_ms, writers, cells,
                       more_tables, zombie_409_timing, zombie_refresh_timing, hold_deadline_ms, short_socket_timeout_ms,
                       held_past_timeout_ms, held_no_timeout_ms, zombie_early_ms, zombie_late_ms, statuses, repro,
                       quick, warehouse, job))

/// The pipeline of one writer's run on `table`: exactly-once, parallelism 1, checkpoints every checkpoint_interval_ms.
inline experiment::pipeline_config pipeline_of(const parameters& p, experiment::iceberg_sink sink,
                                               table_variant table) {
    return {kind_of(table),
            experiment::checkpoint_mode::exactly_once,
            sink,
            p.warehouse,
            experiment::startup_mode::earliest_offset,
            p.checkpoint_interval_ms,
            1};
}

// ---- plan, bad input ------------------------------------------------------

/// Each trial's k (the k-th commit after the settle is hit) and, for
/// status_unforwarded, its status: drawn from the seed, so the same seed gives
/// the same plan. One step per trial, in the order the driver runs them.
inline experiment::fault_plan fault_plan(const parameters& p) {
    experiment::fault_plan plan;
    plan.seed = p.seed;
    rosterrig::splitmix64 rng(p.seed ^ 0xe8e8e8e8ull);
    // The append runs' steps first, as before there were more tables (the same
    // seed draws them the same), then every writer's more tables.
    const auto tables = p.tables();
    std::vector<std::pair<std::string, const std::vector<cell_count>*>> runs;
    for (const auto& w : p.writer_names()) runs.emplace_back(run_name(w, tables.front().table), &tables.front().cells);
    for (const auto& w : p.writer_names())
        for (auto t = tables.begin() + 1; t != tables.end(); ++t) runs.emplace_back(run_name(w, t->table), &t->cells);
    for (const auto& [w, cells] : runs) {
        std::uint64_t index = 0;
        for (const auto& c : *cells)
            for (std::uint64_t i = 0; i < c.trials; ++i) {
                const auto k = 2 + rosterrig::uniform_below(rng, 4);
                std::string what = "the " + std::to_string(k) + "th commit POST after the table settled";
                if (c.kind == cell::status_unforwarded && !p.statuses.empty())
                    what +=
                        ", answered " + std::to_string(p.statuses[rosterrig::uniform_below(rng, p.statuses.size())]);
                const auto kind = is_zombie(c.kind) || outside_window(c.kind) ? experiment::fault_kind::http_delay
                                  : is_held(c.kind)                           ? experiment::fault_kind::http_hold_reply
                                  : c.kind == cell::lose_reply                ? experiment::fault_kind::http_lose_reply
                                  : c.kind == cell::forward_then_504 ? experiment::fault_kind::http_forward_then_504
                                                                     : experiment::fault_kind::http_status;
                plan.steps.push_back(
                    {++index, w + "/" + experiment::name_of(c.kind), kind, what, static_cast<std::int64_t>(k),
                     experiment::heal_of(kind, experiment::fault_target::iceberg_catalog) +
                         (has_kill(c.kind) ? "; " + experiment::heal_of(experiment::fault_kind::kill_taskmanager,
                                                                        experiment::fault_target::flink_taskmanager)
                                           : std::string())});
            }
    }
    return plan;
}

/// The k and status a plan step drew (the step's delay_ms is k; its trigger names the status).
inline unsigned status_of(const experiment::fault_step& step) {
    const auto at = step.trigger.rfind("answered ");
    return at == std::string::npos ? 0u : static_cast<unsigned>(std::stoul(step.trigger.substr(at + 9)));
}

inline std::optional<std::string> usage_problem(const parameters& p, std::int64_t slots) {
    if (!p.job && p.writers.empty()) return "no writer to run (--writers)";
    for (const auto& w : p.job ? std::vector<std::string>{} : p.writers)
        if (!writer_named(w)) return "unknown writer '" + w + "' (known: sinkv2, flinksink)";
    std::uint64_t trials = 0;
    for (const auto& t : p.tables())
        for (const auto& c : t.cells) trials += c.trials;
    if (trials == 0) return "no trial to run: every cell has 0 trials";
    if (p.more_tables)
        for (const auto& t : *p.more_tables)
            if (t.table == table_variant::append)
                return std::string("more_tables: the append table runs 'cells'; name another table");
    for (const auto s : p.statuses)
        if (s < 500 || s > 504 || s == 501) return "status " + std::to_string(s) + " is not one of 500, 502, 503, 504";
    for (const auto* t : {&p.zombie_409_timing, &p.zombie_refresh_timing})
        if (t->a_ms <= 0 || t->a_ms >= p.socket_timeout_ms || t->b_ms >= p.socket_timeout_ms ||
            t->get_ms >= p.socket_timeout_ms)
            return "a zombie delay must be above 0 and under the client's socket timeout (" +
                   std::to_string(p.socket_timeout_ms) + " ms)";
    if (p.hold_deadline() < 30000) return "the hold's deadline must be at least 30 s (30000 ms)";
    if (p.short_socket_timeout() <= 0 || p.held_past_timeout() <= p.short_socket_timeout())
        return "held-past-timeout must hold a reply longer than the short client timeout (" +
               std::to_string(p.short_socket_timeout()) + " ms)";
    if (p.held_no_timeout() <= 0 || p.held_no_timeout() >= p.socket_timeout_ms)
        return "held-no-timeout must hold a reply for more than 0 and less than the client's socket timeout (" +
               std::to_string(p.socket_timeout_ms) + " ms)";
    if (p.zombie_early() <= 0 || p.zombie_early() >= p.zombie_late() || p.zombie_late() >= p.socket_timeout_ms)
        return "zombie-early's delay must be above 0 and under zombie-late's, and zombie-late's under the client's "
               "socket timeout (" +
               std::to_string(p.socket_timeout_ms) + " ms)";
    // A short client timeout would turn every other fault into a timeout too; without one the hold is no timeout.
    for (const auto& t : p.tables())
        for (const auto& c : t.cells)
            if ((c.kind == cell::held_past_timeout) != short_client_timeout(t.table))
                return c.kind == cell::held_past_timeout
                           ? std::string("held-past-timeout runs only on the *-short-timeout tables")
                           : "the *-short-timeout tables run only held-past-timeout, not " + stem_of(c.kind);
    // A zombie trial kills the committer's TaskManager: another must take the job.
    if (slots < 2)
        return "a zombie trial needs a second free task slot for the restored job; Flink offers " +
               std::to_string(slots);
    return std::nullopt;
}

}  // namespace rosterrig::e8

#endif
