// The parse step of a run: the flags every experiment driver takes, the ones
// its hooks add (experiment_traits), and the parameters they choose. What it
// refuses throws experiment::bad_input, before anything is created.
#ifndef ROSTERRIG_LIVE_RUN_REQUEST_HPP
#define ROSTERRIG_LIVE_RUN_REQUEST_HPP
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/experiment/bad_input.hpp>
#include <rosterrig/experiment/experiment_traits.hpp>
#include <rosterrig/experiment/history.hpp>

#include "roles/job_template_plan.hpp"

namespace rosterrig::live {

// A flag that overrides one field of the parameters: a whole number, a
// comma-separated list of them, or a comma-separated list of names (which
// the experiment's own checks judge: an unknown cell is its usage problem).
template <class E>
struct count_flag {
    std::string name, metavar, help;
    std::variant<std::uint64_t E::parameters::*, std::vector<std::int64_t> E::parameters::*,
                 std::vector<std::string> E::parameters::*>
        field;
};

// What the flags ask for: the parameters to run, and where the run goes.
template <class E>
struct run_request {
    std::string command;  // how errors name the driver
    typename E::parameters params;
    std::optional<experiment::history<E>> resumed;
    std::string resume, analyze, out, runs_dir, stack_file, table_check = "streamed";
    bool keep_tables = false;
};

// The flags as given, before they choose the parameters.
template <class E>
struct given_flags {
    run_request<E> request;
    bool quick = false;
    std::uint64_t seed = 0;
    std::string warehouse = "s3", repro, job_file;
    std::vector<std::uint64_t> counts;
    std::vector<std::vector<std::int64_t>> lists;
    std::vector<std::vector<std::string>> names;
};

template <class E>
void declare_common_flags(cli::arg_parser& p, given_flags<E>& f, const std::vector<count_flag<E>>& extra) {
    using traits = experiment::experiment_traits<E>;
    auto& r = f.request;
    p.flag("--quick", f.quick, "the short form, for CI (under 3 minutes); not promoted to results/");
    p.option("--seed", f.seed, "S", "the feed's seed (default: the experiment's own)");
    if constexpr (traits::has_warehouse)
        p.choice("--warehouse", f.warehouse, {"s3", "local"}, "where the table's files live (default s3)");
    f.counts.resize(extra.size());
    f.lists.resize(extra.size());
    f.names.resize(extra.size());
    for (std::size_t i = 0; i < extra.size(); ++i) {
        if (std::holds_alternative<std::uint64_t E::parameters::*>(extra[i].field))
            p.option(extra[i].name, f.counts[i], extra[i].metavar, extra[i].help);
        else if (std::holds_alternative<std::vector<std::int64_t> E::parameters::*>(extra[i].field))
            p.option(extra[i].name, f.lists[i], extra[i].metavar, extra[i].help);
        else
            p.option(extra[i].name, f.names[i], extra[i].metavar, extra[i].help);
    }
    if constexpr (traits::has_warehouse) {
        p.choice(
            "--table-check", r.table_check, {"streamed", "engine", "both"},
            "how tables are checked: every row read back to the rig (default), by Trino where the data is (a table too "
            "large to stream), or both, failing when they disagree; a quick run also runs both on its first table read");
        p.flag("--keep-tables", r.keep_tables,
               "leave the run's tables in the catalog to inspect (printed at the end); jobs and topics still go");
    }
    p.option("--out", r.out, "FILE",
             "write the judged result here too (a full run's default: " + std::string(E::results_file) + ")");
    p.option("--runs", r.runs_dir, "DIR", "where the run's history goes (default: runs/" + std::string(E::id) + "/)");
    if constexpr (traits::resumable)
        p.option(
            "--resume", r.resume, "FILE",
            "continue a run that stopped (its history in runs/): keep its samples and parameters, run what they lack");
    p.option("--analyze", r.analyze, "FILE",
             "re-judge a saved history or result offline: exit 0 held, 1 refuted, 3 inconclusive, 2 bad input");
}

template <class E>
void declare_hook_flags(cli::arg_parser& p, given_flags<E>& f) {
    using traits = experiment::experiment_traits<E>;
    // A short deterministic run of one failure the experiment found, never promoted to results/.
    if constexpr (traits::has_repro) {
        std::string names;
        for (const auto& n : traits::declared.repro_names()) names += (names.empty() ? "" : ", ") + n;
        p.option("--repro", f.repro, "NAME",
                 "run one minimal reproduction (" + names + "); stays in runs/ unless --out");
    }
    p.option("--stack", f.request.stack_file, "FILE",
             "run against the stack this file describes (docs/STACK.md; default: the local stack, compose/ports.env)");
    // A writer-neutral experiment runs a user's job template in place of the rig's (docs/YOUR_JOB.md).
    if constexpr (traits::has_job)
        p.option(
            "--job", f.job_file, "FILE",
            "run your own Flink SQL job template (CREATE TABLE + INSERT from roster_feed; docs/YOUR_JOB.md) in place of "
            "the rig's; planned before the run, its settings read back into the results; never promoted to results/");
}

// --resume FILE: the stopped run's history, which brings its own parameters.
template <class E>
void read_resumed(const cli::arg_parser& p, run_request<E>& r) {
    for (const auto* flag : {"--quick", "--seed", "--warehouse"})
        if (p.given(flag))
            throw experiment::bad_input(std::string("--resume runs with the parameters the run recorded; drop ") +
                                        flag);
    try {
        r.resumed = experiment::read_history<E>(r.resume);
    } catch (const std::exception& e) {
        throw experiment::bad_input(std::string("--resume: ") + e.what());
    }
    if (r.resumed->envelope.status_or_complete() == result::run_status::complete)
        throw experiment::bad_input("--resume: " + r.resume + " is a complete run; nothing to resume");
}

// --repro NAME: the named reproduction's parameters, in place of the full run's.
template <class E>
void choose_reproduction(const cli::arg_parser& p, given_flags<E>& f) {
    using traits = experiment::experiment_traits<E>;
    if constexpr (traits::has_repro) {
        if (f.repro.empty()) return;
        if (f.quick || f.request.resumed)
            throw experiment::bad_input(std::string("--repro is a run of its own; drop ") +
                                        (f.quick ? "--quick" : "--resume"));
        auto named = traits::declared.repro_run(f.repro);
        if (!named) throw experiment::bad_input("--repro: no reproduction named '" + f.repro + "'", p.usage());
        f.request.params = *named;
    }
}

// --seed, --warehouse and the driver's own flags over the chosen parameters.
template <class E>
void apply_overrides(const cli::arg_parser& p, given_flags<E>& f, const std::vector<count_flag<E>>& extra) {
    auto& r = f.request;
    if (!r.resumed && p.given("--seed")) r.params.seed = f.seed;
    if constexpr (experiment::experiment_traits<E>::has_warehouse)
        if (!r.resumed)
            r.params.*experiment::experiment_traits<E>::declared.warehouse =
                *experiment::parse_name<experiment::warehouse>(f.warehouse);
    for (std::size_t i = 0; i < extra.size(); ++i) {
        if (!p.given(extra[i].name)) continue;
        if (r.resumed)
            throw experiment::bad_input("--resume runs with the parameters the run recorded; drop " + extra[i].name);
        if (auto* count = std::get_if<std::uint64_t E::parameters::*>(&extra[i].field)) {
            // A count of zero runs nothing and would judge nothing: refused before anything is created.
            if (f.counts[i] == 0)
                throw experiment::bad_input(extra[i].name + ": expected at least 1, got 0", p.usage());
            r.params.** count = f.counts[i];
        } else if (auto* list = std::get_if<std::vector<std::int64_t> E::parameters::*>(&extra[i].field)) {
            r.params.** list = f.lists[i];
        } else {
            r.params.*std::get<std::vector<std::string> E::parameters::*>(extra[i].field) = f.names[i];
        }
    }
}

// --job FILE: the template's text alone, before any stack is asked.
template <class E>
void read_job(given_flags<E>& f) {
    if constexpr (experiment::experiment_traits<E>::has_job) {
        if (f.job_file.empty()) return;
        if (f.request.resumed) throw experiment::bad_input("--resume runs the template the run recorded; drop --job");
        f.request.params.job = read_job_template(f.job_file);
    }
}

// The run the flags ask for; none when they asked for --help.
template <class E>
std::optional<run_request<E>> parse_request(int argc, char** argv, const std::string& command,
                                            const std::string& summary, const std::vector<count_flag<E>>& extra) {
    given_flags<E> f;
    f.request.command = command;
    cli::arg_parser p{command, summary};
    declare_common_flags(p, f, extra);
    declare_hook_flags(p, f);
    try {
        if (!p.parse(argc, argv)) return std::nullopt;
    } catch (const cli::usage_error& e) {
        throw experiment::bad_input(e.what(), p.usage());
    }
    auto& r = f.request;
    if (!r.analyze.empty()) return r;  // --analyze reads a file and runs nothing
    if (!r.resume.empty()) read_resumed(p, r);
    r.params = r.resumed ? r.resumed->parameters : f.quick ? E::parameters::quick_run() : E::parameters::full();
    choose_reproduction(p, f);
    apply_overrides(p, f, extra);
    read_job(f);
    return r;
}

}  // namespace rosterrig::live

#endif
