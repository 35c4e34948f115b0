// Experiment 6's claims, asserted against the shipped results file; each claim
// is checked to hold on the shipped samples and to fail on a named mutation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include <rosterrig/experiment/history.hpp>

#include "shipped_result.hpp"
#include <rosterrig/experiments/e6_poll_interval/e6_poll_interval.hpp>

using namespace rosterrig;

using C = claims_test::claims_of<e6::definition>;

namespace {
e6::consumer_run& run_named(e6::samples& x, const std::string& name) {
    for (auto& r : x.runs)
        if (r.run == name) return r;
    throw std::runtime_error("no run " + name);
}
bool every_run_of(const e6::samples& x, const std::string& scenario,
                  const std::function<bool(const e6::consumer_run&)>& ok) {
    const auto rs = e6::runs_of(x, scenario);
    return claims_test::gt(scenario + " runs", rs.size(), 0) &&
           std::all_of(rs.begin(), rs.end(), [&](const e6::consumer_run* r) { return ok(*r); });
}
}  // namespace

TEST_CASE("the full e6 run covers each client and protocol in each of the five scenarios, three times",
          "[claims][e6]") {
    REQUIRE_FALSE(C::load().params.quick);
    REQUIRE(C::load().params.repeat_count() == 3);
    C::holds_and_is_mutation_checked(
        [](const e6::samples& x, const e6::parameters& p) {
            std::set<std::pair<std::string, std::uint64_t>> seen;
            for (const auto& r : x.runs) seen.insert({r.run, r.repeat.value_or(0)});
            std::set<std::pair<std::string, std::uint64_t>> want;
            for (const auto& run : e6::parameters::all_runs())
                for (std::uint64_t k = 1; k <= p.repeat_count(); ++k) want.insert({run, k});
            return claims_test::that("the runs and repeats recorded == every run planned in every repeat",
                                     seen == want) &&
                   claims_test::eq("e6 runs", x.runs.size(), want.size());
        },
        // Mutation: the last run missing.
        [](e6::samples& x) { x.runs.pop_back(); });
}

TEST_CASE("every member started with the settings its run asked for, and every member exited cleanly", "[claims][e6]") {
    C::holds_and_is_mutation_checked(
        [](const e6::samples& x, const e6::parameters& p) {
            for (const auto& r : x.runs) {
                const auto run = e6::run_label(r);
                if (!claims_test::eq(run + " exit codes == members", r.exit_codes.size(), p.members) ||
                    !claims_test::eq(run + " start lines == members", r.clients.size(), p.members))
                    return false;
                for (auto code : r.exit_codes)
                    if (!claims_test::eq(run + " a member's exit code", code, 0)) return false;
                const auto settings = r.settings.client + " " + r.settings.protocol + " " + r.settings.mode + " ";
                for (const auto& c : r.clients)  // "client protocol mode version", as the member logged it
                    if (!claims_test::that(run + " start line \"" + c + "\" begins with \"" + settings + "\"",
                                           c.rfind(settings, 0) == 0))
                        return false;
            }
            return true;
        },
        // Mutation: a member of a fix-pause run that logged plain mode.
        [](e6::samples& x) {
            run_named(x, "java/classic/fix-pause").clients.at(0) = "java classic plain kafka-clients";
        });
}

TEST_CASE("a healthy group of every client processed each record once and committed to the end of the topic",
          "[claims][e6]") {
    C::holds_and_is_mutation_checked(
        [](const e6::samples& x, const e6::parameters&) {
            return every_run_of(x, "healthy", [](const e6::consumer_run& r) {
                const auto a = e6::accounting(r);
                const auto run = e6::run_label(r);
                return claims_test::eq(run + " records processed == events", a.processed, r.events) &&
                       claims_test::eq(run + " distinct records processed == events", a.distinct_records, r.events) &&
                       claims_test::eq(run + " failed commits", a.commits_failed, 0) &&
                       claims_test::eq(run + " committed at the end == events", e6::committed_at_end(r), r.events) &&
                       claims_test::eq(run + " lag at the end", e6::lag_at_end(r), 0);
            });
        },
        // Mutation: one record processed a second time.
        [](e6::samples& x) {
            auto& r = run_named(x, "java/consumer/healthy");
            auto it = std::find_if(r.log.begin(), r.log.end(), [](const auto& e) { return e.kind == "record"; });
            r.log.push_back(*it);
        });
}

TEST_CASE("under the degraded latency no group made progress while its members ran", "[claims][e6]") {
    C::holds_and_is_mutation_checked(
        [](const e6::samples& x, const e6::parameters&) {
            return every_run_of(x, "degraded", [](const e6::consumer_run& r) {
                const auto run = e6::run_label(r);
                return claims_test::that(run + " livelocked (no progress while its members ran)", e6::livelocked(r)) &&
                       claims_test::gt(run + " records processed more than once",
                                       e6::accounting(r).processed_more_than_once, 0);
            });
        },
        // Mutation: the livelocked run's committed offsets advance in one sample.
        [](e6::samples& x) { run_named(x, "cpp/classic/degraded").offsets.at(5).committed = 50; });
}

TEST_CASE("under the degraded latency every batch ended in a commit, and the commits failed", "[claims][e6]") {
    C::holds_and_is_mutation_checked(
        [](const e6::samples& x, const e6::parameters&) {
            return every_run_of(x, "degraded", [](const e6::consumer_run& r) {
                const auto a = e6::accounting(r);
                // Plain mode commits after each batch: a commit missing from
                // the log shows as a batch without its answer.
                const auto run = e6::run_label(r);
                return claims_test::gt(run + " batches", a.batches, 0) &&
                       claims_test::eq(run + " commits ok + failed == batches", a.commits_ok + a.commits_failed,
                                       a.batches) &&
                       claims_test::ge(run + " failed commits >= batches - 1", a.commits_failed, a.batches - 1);
            });
        },
        // Mutation: a failed commit dropped from a member's log.
        [](e6::samples& x) {
            auto& log = run_named(x, "java/classic/degraded").log;
            log.erase(std::find_if(log.begin(), log.end(), [](const auto& e) { return e.kind == "commit" && !e.ok; }));
        });
}

TEST_CASE("librdkafka handed the application the exceeded interval from poll, and the Java client's poll never threw",
          "[claims][e6]") {
    C::holds_and_is_mutation_checked(
        [](const e6::samples& x, const e6::parameters&) {
            for (const auto* r : e6::runs_of(x, "degraded")) {
                const auto a = e6::accounting(*r);
                const auto run = e6::run_label(*r);
                if (r->settings.client == "cpp"
                        ? !claims_test::ne(run + " poll errors handed to the application", a.poll_errors, 0)
                        : !claims_test::eq(run + " poll errors", a.poll_errors, 0))
                    return false;
                if (!claims_test::ne(run + " client warnings about the poll interval", r->client_poll_warnings, 0))
                    return false;
            }
            return claims_test::gt("degraded runs", e6::runs_of(x, "degraded").size(), 0);
        },
        // Mutation: the C++ member's poll errors dropped from its log.
        [](e6::samples& x) {
            std::erase_if(run_named(x, "cpp/classic/degraded").log, [](const auto& e) { return e.kind == "error"; });
        });
}

TEST_CASE("the seed's 'no exception' did not hold: every degraded application was handed its failed commits",
          "[claims][e6]") {
    C::holds_and_is_mutation_checked(
        [](const e6::samples& x, const e6::parameters&) {
            return every_run_of(x, "degraded", [](const e6::consumer_run& r) {
                return claims_test::gt(e6::run_label(r) + " failed commits handed to the application",
                                       e6::accounting(r).commits_failed, 0);
            });
        },
        // Mutation: the failed commits reported to the application as successes.
        [](e6::samples& x) {
            for (auto& e : run_named(x, "java/consumer/degraded").log)
                if (e.kind == "commit") e.ok = true;
        });
}

TEST_CASE(
    "every fix processed every record at most once, lost no commit and moved the committed offsets, but the interval fix under Java's consumer protocol",
    "[claims][e6]") {
    C::holds_and_is_mutation_checked(
        [](const e6::samples& x, const e6::parameters& p) {
            auto clean = [](const e6::consumer_run& r) {
                const auto a = e6::accounting(r);
                const auto run = e6::run_label(r);
                return claims_test::eq(run + " records processed more than once", a.processed_more_than_once, 0) &&
                       claims_test::eq(run + " failed commits", a.commits_failed, 0) &&
                       claims_test::gt(run + " committed during the run", e6::committed_during_run(r), 0);
            };
            for (const auto* scenario : {"fix-batch", "fix-pause"})
                if (!every_run_of(x, scenario, clean)) return false;
            // The interval fix: clean with librdkafka and Java's classic protocol. With Java's
            // consumer protocol it lost one commit in the shipped run (the README says so); that
            // run is left out here, not required either way (it varies between runs).
            std::uint64_t interval_runs = 0;
            for (const auto& r : x.runs)
                if (r.run == "cpp/classic/fix-interval" || r.run == "java/classic/fix-interval") {
                    if (!clean(r)) return false;
                    ++interval_runs;
                }
            return claims_test::eq("interval-fix runs with librdkafka and Java's classic protocol", interval_runs,
                                   2 * p.repeat_count());
        },
        // Mutation: one record of the pause fix processed twice.
        [](e6::samples& x) {
            auto& r = run_named(x, "cpp/classic/fix-pause");
            r.log.push_back(
                *std::find_if(r.log.begin(), r.log.end(), [](const auto& e) { return e.kind == "record"; }));
        });
}

TEST_CASE(
    "the 60 s interval under Java's consumer protocol was clean in two repeats of three, and every other configuration gave one outcome in all three",
    "[claims][e6]") {
    C::holds_and_is_mutation_checked(
        [](const e6::samples& x, const e6::parameters&) {
            std::map<std::string, std::pair<int, int>> clean_and_not;
            for (const auto& r : x.runs) {
                auto& [yes, no] = clean_and_not[r.run];
                (e6::clean(r) ? yes : no) += 1;
            }
            for (const auto& [run, counts] : clean_and_not) {
                const bool varied = counts.first > 0 && counts.second > 0;
                const auto outcomes =
                    " (" + std::to_string(counts.first) + " clean, " + std::to_string(counts.second) + " not)";
                if (run == "java/consumer/fix-interval") {
                    if (!claims_test::eq(run + " clean repeats", counts.first, 2) ||
                        !claims_test::eq(run + " repeats not clean", counts.second, 1))
                        return false;
                } else if (!claims_test::that(run + " gave one outcome in all repeats" + outcomes, !varied)) {
                    return false;
                }
            }
            return claims_test::eq("configurations", clean_and_not.size(), 15);
        },
        // Mutation: the pause fix under the classic Java protocol processes a record twice in one repeat.
        [](e6::samples& x) {
            auto& r = run_named(x, "java/classic/fix-pause");
            r.log.push_back(
                *std::find_if(r.log.begin(), r.log.end(), [](const auto& e) { return e.kind == "record"; }));
        });
}

TEST_CASE("the e6 verdicts on record are the ones the code computes from the samples", "[claims][e6]") {
    auto h = C::recorded_verdicts_are_recomputed(10);
    // Mutation (data): a healthy run one record short of the end changes the recomputed verdict.
    for (auto& r : h.samples.runs)
        if (r.settings.scenario == "healthy") r.offsets.back().committed -= 1;
    const auto broken = experiment::rejudge(h);
    const auto it =
        std::find_if(broken.begin(), broken.end(), [](const auto& p) { return p.id == "e6.healthy-progresses-once"; });
    REQUIRE(it != broken.end());
    CHECK(it->verdict == verdict_kind::refuted);
}
