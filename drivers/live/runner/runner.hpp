// The one runner every experiment driver calls, in named steps: parse the
// flags (run_request.hpp), preflight (refuse what cannot run, exit 2, before
// anything is created), open the run's own history file (runs/<experiment>/,
// never over a committed result) with status "running" and the fault plan
// before the first fault, run the body (the history rewritten atomically as
// samples come; "failed" with the reason when it throws), and promote: judge
// only from the saved file, and copy only a complete, judged full run to
// results/. What an experiment adds is asked of experiment_traits, never of
// the definition directly.
//
//   int main(int argc, char** argv) {
//       return live::run_experiment<e1::definition>(argc, argv, summary, {kills_flag}, run_e1);
//   }
#ifndef ROSTERRIG_LIVE_RUNNER_HPP
#define ROSTERRIG_LIVE_RUNNER_HPP
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#include <rosterrig/experiment/bad_input.hpp>
#include <rosterrig/experiment/definition.hpp>
#include <rosterrig/experiment/experiment_traits.hpp>
#include <rosterrig/experiment/fault_plan.hpp>
#include <rosterrig/experiment/history.hpp>
#include <rosterrig/generate/timestamp.hpp>
#include <rosterrig/result/envelope.hpp>
#include <rosterrig/result/prediction_file.hpp>

#include "runner/history_writer.hpp"
#include "roles/job_template_plan.hpp"
#include "roles/leftover_cleanup.hpp"
#include "roles/observe_table.hpp"
#include "runner/preflight.hpp"
#include "adapters/process_fault.hpp"
#include "adapters/process_pause.hpp"
#include "runner/progress.hpp"
#include "runner/provenance.hpp"
#include "runner/run_lock.hpp"
#include "runner/run_request.hpp"
#include "roles/session.hpp"
#include "adapters/stack_versions.hpp"

namespace rosterrig::live {

template <class E>
using run_body =
    std::function<void(session&, const typename E::parameters&, const experiment::fault_plan&, history_writer<E>&)>;

// `--analyze FILE`: re-judges a saved history or result; exit 0 held,
// 1 refuted, 3 inconclusive, 2 bad input. A run that did not complete gives
// only the verdicts more trials cannot change (rejudge, history.hpp). The
// definition's hypotheses, if it states any, are judged after them.
template <class E>
int analyze_history(const std::string& command, const std::string& file) {
    try {
        auto h = experiment::read_history<E>(file);
        const auto judged = experiment::rejudge(h);
        const auto status = h.envelope.status_or_complete();
        std::cout << file << ": " << E::id << ", " << experiment::name_of(status)
                  << (h.envelope.failure ? " (" + *h.envelope.failure + ")" : std::string()) << "\n";
        for (const auto& p : judged)
            std::cout << "  " << p.id << ": " << to_string(p.verdict) << " (" << p.reason << ")\n";
        // Printed after the predictions, and not in the exit code: a hypothesis is not a prediction.
        for (const auto& p : experiment::judge_hypotheses(h))
            std::cout << "  hypothesis " << p.id << ": " << to_string(p.verdict) << " (" << p.reason << ")\n";
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

// A component that does not answer before the run begins: exit 1, "cannot start".
class cannot_start : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws bad_input for the first problems the definition's pre-run checks find.
template <class E>
void refuse_problems(const typename E::parameters& params, const experiment::preflight_facts& facts) {
    std::string why;
    for (const auto& problem : experiment::experiment_traits<E>::problems(params, facts))
        why += (why.empty() ? "" : "; ") + problem;
    if (!why.empty()) throw experiment::bad_input(why);
}

// A user's template is planned by the SQL Gateway before anything is
// created: a sink table the checks cannot read is refused here.
template <class E>
void plan_users_job(run_request<E>& r, const stack_config& stack) {
    if constexpr (experiment::experiment_traits<E>::has_job) {
        auto& job = r.params.job;
        if (!job || job->plan) return;
        try {
            job->plan = plan_job_template(stack, *job, experiment::experiment_traits<E>::declared.job_config(r.params));
        } catch (const experiment::bad_input&) {
            throw;
        } catch (const std::exception& e) {
            throw cannot_start(std::string("planning the job template: ") + e.what());
        }
        progress(std::string(E::id) + ": --job " + job->name +
                 " planned: " + std::string(experiment::name_of(job->plan->kind)) + " table, " + job->plan->sink +
                 ", writer input " + experiment::writer_input(job->plan->edges));
    }
}

// Preflight, up to taking the stack: the parameters alone, the stack
// description, a user's template, the binary's provenance.
template <class E>
stack_config preflight_before_lock(run_request<E>& r) {
    using traits = experiment::experiment_traits<E>;
    refuse_problems<E>(r.params, {});
    install_interrupt_handler();
    stack_config stack;
    try {
        stack = stack_config::load(r.stack_file);
    } catch (const stack::description_error& e) {
        throw experiment::bad_input(std::string("--stack: ") + e.what());
    }
    if constexpr (traits::local_stack_only != nullptr)
        if (!stack.local()) throw experiment::bad_input(std::string("--stack: ") + traits::local_stack_only);
    plan_users_job(r, stack);
    // Provenance that cannot drift: a full run (a --resume continues one)
    // starts only from a binary built from the checkout's HEAD with no
    // uncommitted code, before anything is created; a quick run warns.
    const auto permission = run_permission_here(stack, r.params.quick);
    if (!permission.allowed) throw experiment::bad_input("refused: " + permission.reason);
    if (!permission.reason.empty()) std::cerr << r.command << ": " << permission.reason << "\n";
    // A process a driver killed by SIGKILL left paused hangs everything that
    // talks to it: resumed first, unless another run holds the stack.
    for (const auto& line : heal_paused_leftovers(stack.state_dir)) progress("paused leftover: " + line);
    return stack;
}

// Preflight, holding the stack: the checks again with what they asked to know
// of it, and with a user's template now planned.
template <class E>
void preflight_on_the_stack(const run_request<E>& r, const stack_config& stack) {
    using traits = experiment::experiment_traits<E>;
    constexpr auto wanted = traits::reads;
    constexpr bool reads_stack = wanted.task_slots || wanted.broker_transaction_max_timeout_ms;
    bool planned_job = false;
    if constexpr (traits::has_job) planned_job = r.params.job.has_value();
    if (!reads_stack && !planned_job) return;
    experiment::preflight_facts facts;
    if constexpr (reads_stack) {
        try {
            facts = read_preflight_facts(stack, wanted);
        } catch (const std::exception& e) {
            throw cannot_start(e.what());
        }
    }
    refuse_problems<E>(r.params, facts);
}

// What the history starts with: the run's envelope and its samples so far.
template <class E>
struct run_start {
    std::string src;  // the checkout
    result::result_envelope env;
    typename E::samples initial;
    experiment::fault_plan plan;
};

// The envelope of a new run: the predictions, their commit, the versions.
template <class E>
run_start<E> new_run(const run_request<E>& r, const stack_config& stack) {
    run_start<E> start;
    start.src = std::filesystem::weakly_canonical(source_dir(stack)).string();
    auto& env = start.env;
    try {
        env.experiment = E::id;
        env.parameters = result::to_json_object(r.params);
        env.started_at = iso8601_utc(now_ms());
        start.initial.predictions =
            experiment::unjudged(result::read_predictions(start.src + "/" + E::predictions_file));
        env.prediction.file = E::predictions_file;
        env.prediction.recorded_in_commit = commit_that_recorded(stack, E::predictions_file);
        // Not judged yet: each line says so until the run completes (set_verdict).
        env.prediction.text = experiment::prediction_lines(start.initial.predictions);
        env.code_commit = binary_code_commit();  // the code that runs: compiled in, checked against HEAD above
        env.component_versions = reported_versions(stack);
        if (!stack.local()) env.stack = stack.described.name;
    } catch (const std::exception& e) {
        throw cannot_start(e.what());
    }
    return start;
}

// A resumed run continues the recorded envelope and samples: the same
// predictions, the same plan and the same stack, or it is another run.
template <class E>
void continue_resumed(const run_request<E>& r, run_start<E>& start) {
    const auto& was = r.resumed->envelope;
    const auto& env = start.env;
    if (was.prediction.recorded_in_commit != env.prediction.recorded_in_commit)
        throw experiment::bad_input("--resume: the predictions were committed again since (" +
                                    env.prediction.recorded_in_commit + ", the run used " +
                                    was.prediction.recorded_in_commit + ")");
    if (was.component_versions != env.component_versions)
        throw experiment::bad_input("--resume: the components report other versions than the run recorded");
    if (!was.fault_plan || *was.fault_plan != *env.fault_plan)
        throw experiment::bad_input(
            "--resume: the fault plan drawn from the recorded parameters is not the one recorded");
    auto continued = was;
    continued.status = result::run_status::running;
    continued.failure.reset();
    if (!continued.resumed) continued.resumed.emplace();
    continued.resumed->push_back({iso8601_utc(now_ms()), env.code_commit, was.failure.value_or(""), r.resume});
    const auto predictions = start.initial.predictions;
    start.env = continued;
    start.initial = r.resumed->samples;
    start.initial.predictions = predictions;
    progress(std::string(E::id) + ": resuming " + r.resume + " (" + was.failure.value_or("stopped without a reason") +
             ")");
}

// The open-history step's first half: everything the history file starts with.
template <class E>
run_start<E> start_run(const run_request<E>& r, const stack_config& stack) {
    auto start = new_run(r, stack);
    if constexpr (experiment::experiment_traits<E>::has_warehouse) start.env.table_check = r.table_check;
    start.plan = E::fault_plan(r.params);
    start.env.fault_plan = result::to_json(start.plan);
    start.env.status = result::run_status::running;
    if (r.resumed) continue_resumed(r, start);
    return start;
}

// The open-history step's second half: where the history goes, once what
// runs killed mid-way left behind is gone (it holds slots and restarts with
// every later kill; only what their histories recorded).
template <class E>
std::string history_file(const run_request<E>& r, const stack_config& stack, const run_start<E>& start) {
    const std::filesystem::path dir =
        r.runs_dir.empty() ? std::filesystem::path(start.src) / "runs" / E::id : std::filesystem::path(r.runs_dir);
    std::filesystem::create_directories(dir);
    try {
        const auto cleaned =
            clean_leftovers(stack, r.runs_dir.empty() ? std::filesystem::path(start.src) / "runs" : dir, false);
        for (const auto& line : cleaned.removed) progress("leftover of a dead run: " + line);
        for (const auto& line : cleaned.failed) progress("leftover of a dead run NOT removed: " + line);
    } catch (const std::exception& e) {
        progress(std::string("looking for leftovers of dead runs: ") + e.what());
    }
    std::string stamp = start.env.started_at;
    for (auto& c : stamp)
        if (c == ':') c = '-';
    return (dir / (stamp + "_" + std::to_string(::getpid()) + ".json")).string();
}

// The run step: the body in a session; its exit code when it did not complete.
template <class E>
std::optional<int> run_body_recorded(const run_request<E>& r, const stack_config& stack,
                                     const experiment::fault_plan& plan, history_writer<E>& history,
                                     const run_body<E>& body) {
    try {
        session s(stack, E::tag);
        const heal_paused_on_exit heal;  // destroyed before s: nothing stays paused through the clean-up
        s.refuse_if_run_id_taken();
        s.on_created = [&](const std::string& kind, const std::string& name) { history.note_created(kind, name); };
        s.keep_tables = r.keep_tables;
        // A quick run holds Trino's own checks to the streaming ones on its first table read.
        s.table_checks.way =
            experiment::table_check_setting(experiment::parse_name<experiment::table_check_way>(r.table_check)
                                                .value_or(experiment::table_check_way::streamed),
                                            r.params.quick);
        body(s, r.params, plan, history);
    } catch (const experiment::bad_input&
                 e) {  // a component refused what it was given (a connector config), in its own words
        const auto why = stack.described.redact(e.what());
        history.fail(why);
        std::cerr << r.command << ": " << why << "\n  the history so far: " << history.file() << "\n";
        return 2;
    } catch (const std::exception& e) {
        const auto why = stack.described.redact(e.what());  // an error may quote what a component echoed
        history.fail(why);
        std::cerr << r.command << ": FAILED: " << why << "\n  the history so far: " << history.file() << "\n";
        return 1;
    }
    history.complete();
    return std::nullopt;
}

// The promote step: judged from the saved file, as --analyze and the claim
// tests judge it; a full run's result copied to results/.
template <class E>
int promote(const run_request<E>& r, const std::string& src, const std::string& file) {
    try {
        auto saved = experiment::read_history<E>(file);
        auto judged = experiment::rejudge(saved);
        saved.samples.predictions = judged;
        saved.envelope.samples = result::to_json(saved.samples);
        experiment::set_verdict(saved.envelope, judged);
        result::write_result(file, saved.envelope);
        // A run of a user's job is theirs: it reaches results/ only when --out says where.
        bool users_job = false;
        if constexpr (experiment::experiment_traits<E>::has_job) users_job = r.params.job.has_value();
        const std::string target = !r.out.empty()                ? r.out
                                   : r.params.quick || users_job ? std::string()
                                                                 : src + "/" + E::results_file;
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
        std::cerr << r.command << ": the run completed but its history cannot be judged: " << e.what() << "\n";
        return 1;
    }
}

// Bad input exits 2 and a stack that cannot start a run exits 1, both before
// anything is created; a run that fails records why in its history.
template <experiment::experiment_definition E>
int run_experiment(int argc, char** argv, const std::string& summary, const std::vector<count_flag<E>>& extra,
                   const run_body<E>& body) {
    const std::string command = experiment::experiment_traits<E>::command();
    try {
        auto request = parse_request<E>(argc, argv, command, summary, extra);
        if (!request) return 0;
        if (!request->analyze.empty()) return analyze_history<E>(command, request->analyze);
        const stack_config stack = preflight_before_lock(*request);
        const run_lock holding_the_stack(stack.state_dir);
        preflight_on_the_stack(*request, stack);
        const auto start = start_run(*request, stack);
        history_writer<E> history(history_file(*request, stack, start), start.env, start.initial);
        progress(std::string(E::id) + ": history in " + history.file());
        if (const auto failed = run_body_recorded(*request, stack, start.plan, history, body)) return *failed;
        return promote(*request, start.src, history.file());
    } catch (const experiment::bad_input& e) {
        std::cerr << command << ": " << e.what() << "\n" << e.usage();
        return 2;
    } catch (const cannot_start& e) {
        std::cerr << command << ": cannot start: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace rosterrig::live

#endif
