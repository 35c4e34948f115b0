// The one runner every experiment driver calls. It parses the flags with the
// one parser, writes the run's own history file (runs/<experiment>/, never
// over a committed result) with status "running" and the fault plan before the
// first fault, rewrites it atomically as samples come, records "failed" with
// the reason when the run throws, judges only from the saved file, and
// promotes only a complete, judged full run to results/.
//
//   int main(int argc, char** argv) {
//       return live::run_experiment<e1::definition>(argc, argv, summary, {kills_flag}, run_e1);
//   }
#ifndef ROSTERRIG_LIVE_RUNNER_HPP
#define ROSTERRIG_LIVE_RUNNER_HPP
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <unistd.h>
#include <variant>
#include <vector>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/experiment/fault_plan.hpp>
#include <rosterrig/experiment/history.hpp>
#include <rosterrig/generate/timestamp.hpp>
#include <rosterrig/result/envelope.hpp>
#include <rosterrig/result/prediction_file.hpp>

#include "connect_rest.hpp"
#include "job_template_plan.hpp"
#include "kafka_transactions.hpp"
#include "leftover_cleanup.hpp"
#include "observe_table.hpp"
#include "process_fault.hpp"
#include "process_pause.hpp"
#include "progress.hpp"
#include "provenance.hpp"
#include "run_lock.hpp"
#include "session.hpp"
#include "stack_versions.hpp"

namespace rosterrig::live {

// The history file of one run, rewritten whole (temporary file, rename) on
// every change, so a reader, or a run killed with SIGKILL, never sees half.
template <class E>
class history_writer {
public:
    using samples_type = typename E::samples;

    history_writer(std::string file, result::result_envelope env, samples_type initial)
        : file_(std::move(file)), env_(std::move(env)), samples_(std::move(initial)) {
        write_locked();
    }

    // Applies `change` to the samples, saves them, and returns what it returned.
    template <class Change>
    auto record(Change&& change) {
        std::lock_guard lock(mutex_);
        if constexpr (std::is_void_v<std::invoke_result_t<Change, samples_type&>>) {
            change(samples_);
            write_locked();
        } else {
            auto r = change(samples_);
            write_locked();
            return r;
        }
    }

    // Applies `change` without saving: for a sampler's tick, which must not
    // wait for the disk; the run's main loop calls flush().
    template <class Change>
    void stage(Change&& change) {
        std::lock_guard lock(mutex_);
        change(samples_);
        staged_ = true;
    }
    // Saves what was staged since the last save; nothing staged, nothing written.
    void flush() {
        std::lock_guard lock(mutex_);
        if (staged_) write_locked();
    }
    // Reads the samples under the lock, without saving.
    template <class Read>
    auto read(Read&& look) const {
        std::lock_guard lock(mutex_);
        return look(samples_);
    }

    // Records a resource before it is created.
    void note_created(const std::string& kind, const std::string& name) {
        std::lock_guard lock(mutex_);
        if (!env_.created) env_.created.emplace();
        env_.created->push_back({kind, name});
        write_locked();
    }

    void fail(const std::string& why) { finish(result::run_status::failed, why); }
    void complete() { finish(result::run_status::complete, {}); }
    const std::string& file() const { return file_; }

private:
    void finish(result::run_status status, const std::string& why) {
        std::lock_guard lock(mutex_);
        env_.status = status;
        if (!why.empty()) env_.failure = why;
        env_.finished_at = iso8601_utc(now_ms());
        write_locked();
    }
    void write_locked() {
        env_.samples = result::to_json(samples_);
        result::write_result(file_, env_);
        staged_ = false;
    }

    std::string file_;
    result::result_envelope env_;
    samples_type samples_;
    bool staged_ = false;  // changes staged by a sampler and not yet saved
    mutable std::mutex mutex_;
};

// An experiment whose driver can continue a stopped run (it skips what the
// recorded samples already hold) says so with `static constexpr bool resumable = true`.
template <class E>
constexpr bool is_resumable() {
    if constexpr (requires { E::resumable; }) return E::resumable;
    else return false;
}

// A flag that overrides one field of the parameters: a whole number, or a
// comma-separated list of them.
template <class E>
struct count_flag {
    std::string name, metavar, help;
    std::variant<std::uint64_t E::parameters::*, std::vector<std::int64_t> E::parameters::*> field;
};

template <class E>
using run_body = std::function<void(session&, const typename E::parameters&, const experiment::fault_plan&,
                                    history_writer<E>&)>;

// `--analyze FILE`: re-judges a saved history or result; exit 0 held,
// 1 refuted, 3 inconclusive, 2 bad input. A run that did not complete can
// refute a prediction but never hold one.
template <class E>
int analyze_history(const std::string& command, const std::string& file) {
    try {
        auto h = experiment::read_history<E>(file);
        auto judged = experiment::rejudge(h);
        const auto status = h.envelope.status_or_complete();
        std::cout << file << ": " << E::id << ", " << experiment::name_of(status)
                  << (h.envelope.failure ? " (" + *h.envelope.failure + ")" : std::string()) << "\n";
        for (auto& p : judged) {
            if (status != result::run_status::complete && p.verdict == verdict_kind::held) {
                p.verdict = verdict_kind::inconclusive;
                p.reason = "the run did not complete; so far: " + p.reason;
            }
            std::cout << "  " << p.id << ": " << to_string(p.verdict) << " (" << p.reason << ")\n";
        }
        return experiment::exit_code(experiment::overall(judged));
    } catch (const std::exception& e) {
        std::cerr << command << ": " << e.what() << "\n";
        return 2;
    }
}

// A driver that hosts a variant behind a flag (rosterrig-e1 --multi-input):
// the flag anywhere selects it, and the other arguments are the variant's.
// Its exit code, or nothing when the flag is absent.
inline std::optional<int> run_variant(int argc, char** argv, std::string_view flag, int (*variant)(int, char**)) {
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]) != flag) rest.push_back(argv[i]);
    if (static_cast<int>(rest.size()) == argc) return std::nullopt;
    return variant(static_cast<int>(rest.size()), rest.data());
}

template <class E>
int run_experiment(int argc, char** argv, const std::string& summary, const std::vector<count_flag<E>>& extra,
                   const run_body<E>& body) {
    // A variant run by another experiment's driver names that driver's flag.
    const std::string command = [] {
        if constexpr (requires { E::command; }) return std::string(E::command);
        else return std::string("rosterrig-") + E::tag;
    }();
    bool quick = false;
    std::uint64_t seed = 0;
    std::string warehouse = "s3", out, analyze, runs_dir, resume, stack_file;
    std::vector<std::uint64_t> counts(extra.size());
    std::vector<std::vector<std::int64_t>> lists(extra.size());
    cli::arg_parser p{command, summary};
    p.flag("--quick", quick, "the short form, for CI (under 3 minutes); not promoted to results/");
    p.option("--seed", seed, "S", "the feed's seed (default: the experiment's own)");
    // Only an experiment with a table has a warehouse to choose.
    constexpr bool has_warehouse = requires(typename E::parameters x) { x.warehouse; };
    if constexpr (has_warehouse) p.choice("--warehouse", warehouse, {"s3", "local"}, "where the table's files live (default s3)");
    for (std::size_t i = 0; i < extra.size(); ++i) {
        if (std::holds_alternative<std::uint64_t E::parameters::*>(extra[i].field))
            p.option(extra[i].name, counts[i], extra[i].metavar, extra[i].help);
        else
            p.option(extra[i].name, lists[i], extra[i].metavar, extra[i].help);
    }
    std::string table_check = "streamed";
    if constexpr (has_warehouse)
        p.choice("--table-check", table_check, {"streamed", "engine", "both"},
                 "how tables are checked: every row read back to the rig (default), by Trino where the data is (a table too "
                 "large to stream), or both, failing when they disagree; a quick run also runs both on its first table read");
    bool keep_tables = false;
    if constexpr (has_warehouse)
        p.flag("--keep-tables", keep_tables, "leave the run's tables in the catalog to inspect (printed at the end); jobs and topics still go");
    p.option("--out", out, "FILE", "write the judged result here too (a full run's default: " + std::string(E::results_file) + ")");
    p.option("--runs", runs_dir, "DIR", "where the run's history goes (default: runs/" + std::string(E::id) + "/)");
    if constexpr (is_resumable<E>())
        p.option("--resume", resume, "FILE",
                 "continue a run that stopped (its history in runs/): keep its samples and parameters, run what they lack");
    p.option("--analyze", analyze, "FILE",
             "re-judge a saved history or result offline: exit 0 held, 1 refuted, 3 inconclusive, 2 bad input");
    // An experiment with named reproductions (E::parameters::repro_run(name)) takes --repro NAME: a
    // short deterministic run of one failure it found, never promoted to results/.
    std::string repro;
    constexpr bool has_repro = requires { E::parameters::repro_run(std::string()); E::parameters::repro_names(); };
    if constexpr (has_repro) {
        std::string names;
        for (const auto& n : E::parameters::repro_names()) names += (names.empty() ? "" : ", ") + n;
        p.option("--repro", repro, "NAME", "run one minimal reproduction (" + names + "); stays in runs/ unless --out");
    }
    p.option("--stack", stack_file, "FILE",
             "run against the stack this file describes (docs/STACK.md; default: the local stack, compose/ports.env)");
    // A writer-neutral experiment runs a user's job template in place of the rig's (docs/YOUR_JOB.md).
    constexpr bool has_job = requires(typename E::parameters x) { x.job; E::job_config(x); };
    std::string job_file;
    if constexpr (has_job)
        p.option("--job", job_file, "FILE",
                 "run your own Flink SQL job template (CREATE TABLE + INSERT from roster_feed; docs/YOUR_JOB.md) in place of "
                 "the rig's; planned before the run, its settings read back into the results; never promoted to results/");
    try {
        if (!p.parse(argc, argv)) return 0;
    } catch (const cli::usage_error& e) {
        std::cerr << command << ": " << e.what() << "\n" << p.usage();
        return 2;
    }
    if (!analyze.empty()) return analyze_history<E>(command, analyze);

    std::optional<experiment::history<E>> resumed;
    if (!resume.empty()) {
        for (const auto* flag : {"--quick", "--seed", "--warehouse"})
            if (p.given(flag)) {
                std::cerr << command << ": --resume runs with the parameters the run recorded; drop " << flag << "\n";
                return 2;
            }
        try {
            resumed = experiment::read_history<E>(resume);
        } catch (const std::exception& e) {
            std::cerr << command << ": --resume: " << e.what() << "\n";
            return 2;
        }
        if (resumed->envelope.status_or_complete() == result::run_status::complete) {
            std::cerr << command << ": --resume: " << resume << " is a complete run; nothing to resume\n";
            return 2;
        }
    }
    auto params = resumed ? resumed->parameters : quick ? E::parameters::quick_run() : E::parameters::full();
    if constexpr (has_repro) {
        if (!repro.empty()) {
            if (quick || resumed) {
                std::cerr << command << ": --repro is a run of its own; drop " << (quick ? "--quick" : "--resume") << "\n";
                return 2;
            }
            auto named = E::parameters::repro_run(repro);
            if (!named) {
                std::cerr << command << ": --repro: no reproduction named '" << repro << "'\n" << p.usage();
                return 2;
            }
            params = *named;
        }
    }
    if (!resumed && p.given("--seed")) params.seed = seed;
    if constexpr (has_warehouse)
        if (!resumed) params.warehouse = *experiment::parse_name<experiment::warehouse>(warehouse);
    for (std::size_t i = 0; i < extra.size(); ++i) {
        if (!p.given(extra[i].name)) continue;
        if (resumed) {
            std::cerr << command << ": --resume runs with the parameters the run recorded; drop " << extra[i].name << "\n";
            return 2;
        }
        if (auto* count = std::get_if<std::uint64_t E::parameters::*>(&extra[i].field)) {
            // A count of zero runs nothing and would judge nothing: refused before anything is created.
            if (counts[i] == 0) {
                std::cerr << command << ": " << extra[i].name << ": expected at least 1, got 0\n" << p.usage();
                return 2;
            }
            params.**count = counts[i];
        }
        else params.*std::get<std::vector<std::int64_t> E::parameters::*>(extra[i].field) = lists[i];
    }
    if constexpr (has_job) {
        if (!job_file.empty()) {
            if (resumed) {
                std::cerr << command << ": --resume runs the template the run recorded; drop --job\n";
                return 2;
            }
            try {
                params.job = read_job_template(job_file);  // its text alone, before any stack is asked
            } catch (const template_refused& e) {
                std::cerr << command << ": " << e.what() << "\n";
                return 2;
            }
        }
    }
    // Parameters that cannot run exit 2 before anything is created: first
    // what the parameters alone decide, then what the TaskManagers offer.
    if constexpr (requires { E::usage_problem(params, std::int64_t{}); }) {
        if (auto why = E::usage_problem(params, std::numeric_limits<std::int64_t>::max())) {
            std::cerr << command << ": " << *why << "\n";
            return 2;
        }
    }

    install_interrupt_handler();
    stack_config stack;
    try {
        stack = stack_config::load(stack_file);
    } catch (const stack::description_error& e) {
        std::cerr << command << ": --stack: " << e.what() << "\n";
        return 2;
    }
    // An experiment whose faults sit on this machine (a proxy on 127.0.0.1 that
    // the engines must reach) cannot run against a described cluster.
    if constexpr (requires { E::local_stack_only; }) {
        if (!stack.local()) {
            std::cerr << command << ": --stack: " << E::local_stack_only << "\n";
            return 2;
        }
    }
    // A user's template is planned by the SQL Gateway before anything is
    // created: a sink table the checks cannot read is refused here.
    if constexpr (has_job) {
        if (params.job && !params.job->plan) {
            try {
                params.job->plan = plan_job_template(stack, *params.job, E::job_config(params));
                progress(std::string(E::id) + ": --job " + params.job->name + " planned: " +
                         std::string(experiment::name_of(params.job->plan->kind)) + " table, " + params.job->plan->sink + ", writer input " +
                         experiment::writer_input(params.job->plan->edges));
            } catch (const template_refused& e) {
                std::cerr << command << ": " << e.what() << "\n";
                return 2;
            } catch (const std::exception& e) {
                std::cerr << command << ": cannot start: planning the job template: " << e.what() << "\n";
                return 1;
            }
        }
    }
    // Provenance that cannot drift: a full run (a --resume continues one)
    // starts only from a binary built from the checkout's HEAD with no
    // uncommitted code, before anything is created; a quick run warns.
    {
        const auto permission = run_permission_here(stack, params.quick);
        if (!permission.allowed) {
            std::cerr << command << ": refused: " << permission.reason << "\n";
            return 2;
        }
        if (!permission.reason.empty()) std::cerr << command << ": " << permission.reason << "\n";
    }
    // A process a driver killed by SIGKILL left paused hangs everything that
    // talks to it: resumed first, unless another run holds the stack.
    for (const auto& line : heal_paused_leftovers(stack.state_dir)) progress("paused leftover: " + line);
    const run_lock holding_the_stack(stack.state_dir);
    if constexpr (requires { E::usage_problem(params, std::int64_t{}); }) {
        std::int64_t slots = 0;
        try {
            slots = flink_rest(stack.flink()).total_slots();
        } catch (const std::exception& e) {
            std::cerr << command << ": cannot start: " << e.what() << "\n";
            return 1;
        }
        if (auto why = E::usage_problem(params, slots)) {
            std::cerr << command << ": " << *why << "\n";
            return 2;
        }
    }
    // A Kafka-writing experiment asks the broker the longest transaction it allows.
    if constexpr (requires { E::transaction_timeout_problem(params, std::int64_t{}); }) {
        std::int64_t max = 0;
        try {
            max = broker_setting(stack, "transaction.max.timeout.ms");
        } catch (const std::exception& e) {
            std::cerr << command << ": cannot start: " << e.what() << "\n";
            return 1;
        }
        if (auto why = E::transaction_timeout_problem(params, max)) {
            std::cerr << command << ": " << *why << "\n";
            return 2;
        }
    }
    const std::string src = std::filesystem::weakly_canonical(source_dir(stack)).string();
    result::result_envelope env;
    std::vector<result::prediction> predictions;
    try {
        env.experiment = E::id;
        env.parameters = result::to_json_object(params);
        env.started_at = iso8601_utc(now_ms());
        predictions = result::read_predictions(src + "/" + E::predictions_file);
        env.prediction.file = E::predictions_file;
        env.prediction.recorded_in_commit = commit_that_recorded(stack, E::predictions_file);
        // Not judged yet: each line says so until the run completes (set_verdict).
        env.prediction.text = experiment::prediction_lines(experiment::unjudged(predictions));
        env.code_commit = binary_code_commit();  // the code that runs: compiled in, checked against HEAD above
        env.component_versions = reported_versions(stack);
        if (!stack.local()) env.stack = stack.described.name;
    } catch (const std::exception& e) {
        std::cerr << command << ": cannot start: " << e.what() << "\n";
        return 1;
    }
    // A quick run holds Trino's own checks to the streaming ones on its first table read.
    const experiment::table_check_setting table_checks(
        experiment::parse_name<experiment::table_check_way>(table_check).value_or(experiment::table_check_way::streamed), params.quick);
    if constexpr (has_warehouse) env.table_check = table_check;
    const auto plan = E::fault_plan(params);
    env.fault_plan = result::to_json(plan);
    env.status = result::run_status::running;
    typename E::samples initial;
    initial.predictions = experiment::unjudged(predictions);
    if (resumed) {
        // The same predictions, the same plan and the same stack, or it is another run.
        const auto& was = resumed->envelope;
        std::string why;
        if (was.prediction.recorded_in_commit != env.prediction.recorded_in_commit)
            why = "the predictions were committed again since (" + env.prediction.recorded_in_commit + ", the run used " +
                  was.prediction.recorded_in_commit + ")";
        else if (was.component_versions != env.component_versions)
            why = "the components report other versions than the run recorded";
        else if (!was.fault_plan || *was.fault_plan != *env.fault_plan)
            why = "the fault plan drawn from the recorded parameters is not the one recorded";
        if (!why.empty()) {
            std::cerr << command << ": --resume: " << why << "\n";
            return 2;
        }
        auto continued = was;
        continued.status = result::run_status::running;
        continued.failure.reset();
        if (!continued.resumed) continued.resumed.emplace();
        continued.resumed->push_back({iso8601_utc(now_ms()), env.code_commit, was.failure.value_or(""), resume});
        env = continued;
        initial = resumed->samples;
        initial.predictions = experiment::unjudged(predictions);
        progress(std::string(E::id) + ": resuming " + resume + " (" + was.failure.value_or("stopped without a reason") + ")");
    }

    const std::filesystem::path dir =
        runs_dir.empty() ? std::filesystem::path(src) / "runs" / E::id : std::filesystem::path(runs_dir);
    std::filesystem::create_directories(dir);
    // What runs killed mid-way left behind goes first: it holds slots and
    // restarts with every later kill (only what their histories recorded).
    try {
        const auto cleaned = clean_leftovers(stack, runs_dir.empty() ? std::filesystem::path(src) / "runs" : dir, false);
        for (const auto& line : cleaned.removed) progress("leftover of a dead run: " + line);
        for (const auto& line : cleaned.failed) progress("leftover of a dead run NOT removed: " + line);
    } catch (const std::exception& e) {
        progress(std::string("looking for leftovers of dead runs: ") + e.what());
    }
    std::string stamp = env.started_at;
    for (auto& c : stamp)
        if (c == ':') c = '-';
    const std::string file = (dir / (stamp + "_" + std::to_string(::getpid()) + ".json")).string();
    history_writer<E> history(file, env, initial);
    progress(std::string(E::id) + ": history in " + file);

    try {
        session s(stack, E::tag);
        const heal_paused_on_exit heal;  // destroyed before s: nothing stays paused through the clean-up
        s.refuse_if_run_id_taken();
        s.on_created = [&](const std::string& kind, const std::string& name) { history.note_created(kind, name); };
        s.keep_tables = keep_tables;
        s.table_checks = table_checks;
        body(s, params, plan, history);
    } catch (const connect_rejected& e) {  // bad input: the worker refused a connector config, in its own words
        const auto why = stack.described.redact(e.what());
        history.fail(why);
        std::cerr << command << ": " << why << "\n  the history so far: " << file << "\n";
        return 2;
    } catch (const std::exception& e) {
        const auto why = stack.described.redact(e.what());  // an error may quote what a component echoed
        history.fail(why);
        std::cerr << command << ": FAILED: " << why << "\n  the history so far: " << file << "\n";
        return 1;
    }
    history.complete();

    // Judged from the saved file, as --analyze and the claim tests judge it.
    try {
        auto saved = experiment::read_history<E>(file);
        auto judged = experiment::rejudge(saved);
        saved.samples.predictions = judged;
        saved.envelope.samples = result::to_json(saved.samples);
        experiment::set_verdict(saved.envelope, judged);
        result::write_result(file, saved.envelope);
        // A run of a user's job is theirs: it reaches results/ only when --out says where.
        bool users_job = false;
        if constexpr (has_job) users_job = params.job.has_value();
        const std::string target = !out.empty() ? out : params.quick || users_job ? std::string() : src + "/" + E::results_file;
        if (!target.empty()) {
            result::write_result(target, saved.envelope);
            progress(std::string(E::id) + ": results written to " + target);
        } else {
            progress(std::string(E::id) + ": this run stays in " + file + " (give --out FILE to copy it)");
        }
        for (const auto& x : judged)
            progress("  " + x.id + ": " + std::string(to_string(x.verdict)) + " (" + x.reason + ")");
        return 0;
    } catch (const std::exception& e) {
        std::cerr << command << ": the run completed but its history cannot be judged: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace rosterrig::live

#endif
