// The way each table read checks its rows (rosterrig/experiment/table_check.hpp):
// the run's --table-check way, and both on a quick run's first read.
#include <catch2/catch.hpp>

#include <rosterrig/experiment/enum_names.hpp>
#include <rosterrig/experiment/table_check.hpp>

using namespace rosterrig::experiment;

TEST_CASE("every --table-check word names its way, spelled as the results record it", "[table_check]") {
    for (const auto way : {table_check_way::streamed, table_check_way::engine, table_check_way::both})
        CHECK(parse_name<table_check_way>(name_of(way)) == way);
    CHECK(name_of(table_check_way::engine) == "engine");
    CHECK_FALSE(parse_name<table_check_way>("trino").has_value());
}

TEST_CASE("a quick run's first table read runs both checks, and every later read the run's way", "[table_check]") {
    for (const auto way : {table_check_way::streamed, table_check_way::engine, table_check_way::both}) {
        INFO("--table-check " << name_of(way));
        table_check_setting quick(way, true);
        // Mutation: leave the cross-check armed after the first read, and the second read runs both ways.
        CHECK(quick.next_read() == table_check_way::both);
        CHECK(quick.next_read() == way);
        CHECK(quick.next_read() == way);
    }
}

TEST_CASE("a full run reads every table the way --table-check chose, streamed unless told", "[table_check]") {
    CHECK(table_check_setting{}.way() == table_check_way::streamed);
    table_check_setting streamed;
    CHECK(streamed.next_read() == table_check_way::streamed);
    table_check_setting engine(table_check_way::engine, false);
    CHECK(engine.next_read() == table_check_way::engine);
    CHECK(engine.next_read() == table_check_way::engine);
}

TEST_CASE("two runs' settings are their own: arming one spends nothing of another", "[table_check]") {
    // What the process-wide setting could not promise: each session holds its own.
    table_check_setting first(table_check_way::streamed, true), second(table_check_way::streamed, true);
    CHECK(first.next_read() == table_check_way::both);
    CHECK(second.next_read() == table_check_way::both);
}
