// Experiment 1b's pure parts: how a plan's writer input is read, how
// duplicate copies are attributed to kills, and the rules' edges.
#include <catch2/catch.hpp>

#include <rosterrig/experiments/e1b_multi_input/e1b_multi_input.hpp>

using namespace rosterrig;

namespace {
experiment::plan_edge edge(std::string from, std::string to, std::string ship, std::int64_t from_p, std::int64_t to_p) {
    return {std::move(from), std::move(to), std::move(ship), from_p, to_p};
}
const std::string source = "Source: roster_feed[1] -> Calc[2]";
const std::string writer = "IcebergStreamWriter";
const std::string committer = "IcebergFilesCommitter -> Sink: IcebergSink";

experiment::kill_sample kill(std::uint64_t index, std::int64_t restored) {
    experiment::kill_sample k;
    k.index = index;
    k.restored_checkpoint_id = restored;
    return k;
}
}  // namespace

// Mutation: fan_in_of counting one channel behind REBALANCE makes it fail.
TEST_CASE("a writer behind a rebalance has one input channel per upstream subtask", "[e1b]") {
    const auto f =
        experiment::fan_in_of({edge("", source, "NONE (source vertex)", 0, 4), edge(source, writer, "REBALANCE", 4, 1),
                               edge(writer, committer, "REBALANCE", 1, 1)});
    CHECK(f.found);
    CHECK_FALSE(f.chained);
    CHECK(f.input_channels == 4);
    CHECK(f.writer_parallelism == 1);
    CHECK_FALSE(e1b::fan_in_problem(f));
}

// Mutation: fan_in_of ignoring an empty `from` (a writer in the source's vertex) makes it fail.
TEST_CASE("a writer chained with the source is refused: one input channel cannot tell the modes apart", "[e1b]") {
    const auto f = experiment::fan_in_of({edge("", source + " -> " + writer, "NONE (source vertex)", 0, 2),
                                          edge(source + " -> " + writer, committer, "REBALANCE", 2, 1)});
    CHECK(f.chained);
    CHECK(f.input_channels == 1);
    REQUIRE(e1b::fan_in_problem(f));
    CHECK(e1b::fan_in_problem(experiment::writer_fan_in{})->find("no writer") != std::string::npos);
}

// Mutation: job_problems accepting any planned kind (or not reading the plan's edges) makes it fail.
TEST_CASE(
    "a user's template is refused before the run when it makes an upsert table or chains its writer to the source",
    "[e1b]") {
    e1b::parameters p;
    CHECK(e1b::job_problems(p, {}).empty());  // the rig's own writer
    p.job = experiment::job_template{"mine.sql", "", "", experiment::template_plan{}};
    p.job->plan->edges = {edge("", source, "NONE (source vertex)", 0, 4), edge(source, writer, "HASH", 4, 2),
                          edge(writer, committer, "REBALANCE", 2, 1)};
    CHECK(e1b::job_problems(p, {}).empty());  // an append table fed through an exchange
    p.job->plan->kind = experiment::table_kind::upsert;
    REQUIRE(e1b::job_problems(p, {}).size() == 1);
    CHECK(e1b::job_problems(p, {}).front().find("upsert") != std::string::npos);
    p.job->plan->kind = experiment::table_kind::append;
    p.job->plan->edges = {edge("", source + " -> " + writer, "NONE (source vertex)", 0, 2),
                          edge(source + " -> " + writer, committer, "REBALANCE", 2, 1)};
    REQUIRE(e1b::job_problems(p, {}).size() == 1);
    CHECK(e1b::job_problems(p, {}).front().find("chained") != std::string::npos);
}

// Mutation: attributing a copy to the first kill below it instead of the last makes it fail.
TEST_CASE("each later copy of a seq goes to the last kill whose restored checkpoint precedes it", "[e1b]") {
    e1b::configuration_run c;
    c.run.kills = {kill(1, 3), kill(2, 7), kill(3, 7), kill(4, 12)};
    c.duplicate_copies = {{100, 7},  {100, 9},              // replayed after the restores of checkpoint 7: kill 3
                          {200, 12}, {200, 13}, {200, 15},  // two replays, both after kill 4's restore of 12
                          {300, 5},  {300, 4},  // out of order: the original is checkpoint 4, the copy at 5 is kill 1's
                          {400, 2},  {400, 3},  // committed by checkpoint 3, which no restore precedes
                          {500, -1}, {500, 8}};  // the original's checkpoint unknown: the copy at 8 goes to kill 3
    e1b::attribute_by_checkpoint(c);
    CHECK(c.run.kills[0].duplicates == 1);
    CHECK(c.run.kills[1].duplicates == 0);
    CHECK(c.run.kills[2].duplicates == 2);
    CHECK(c.run.kills[3].duplicates == 2);
    CHECK(c.run.unattributed_duplicates == 1);
}

// Mutation: at_least_once_duplicates returning refuted below kills_to_refute makes it fail.
TEST_CASE("at-least-once without duplicates is refuted only after thirty clean kills", "[e1b]") {
    e1b::samples s;
    e1b::configuration_run c;
    c.run.name = e1b::configurations()[0].name;
    c.fan_in = experiment::fan_in_of({edge(source, writer, "REBALANCE", 4, 1)});
    for (std::uint64_t i = 1; i <= 29; ++i) c.run.kills.push_back(kill(i, static_cast<std::int64_t>(i)));
    s.configurations.push_back(c);
    CHECK(e1b::at_least_once_duplicates(s, c.run.name, e1b::kills_to_refute).verdict == verdict_kind::inconclusive);
    s.configurations[0].run.kills.push_back(kill(30, 30));
    CHECK(e1b::at_least_once_duplicates(s, c.run.name, e1b::kills_to_refute).verdict == verdict_kind::refuted);
    s.configurations[0].run.kills[4].duplicates = 12;
    CHECK(e1b::at_least_once_duplicates(s, c.run.name, e1b::kills_to_refute).verdict == verdict_kind::held);
    // A chained writer cannot answer, whatever the kills say.
    s.configurations[0].fan_in =
        experiment::fan_in_of({edge("", source + " -> " + writer, "NONE (source vertex)", 0, 4)});
    CHECK(e1b::at_least_once_duplicates(s, c.run.name, e1b::kills_to_refute).verdict == verdict_kind::inconclusive);
}
