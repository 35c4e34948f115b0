// What we publish names no folder of the machine that ran it: the README is
// rendered from results that may quote one (recorded before write_result
// made paths relative), and the report writes them from `.stack/` on.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <rosterrig/result/machine_paths.hpp>

using namespace rosterrig;

// Mutation: splice a section without result::state_folder_relative in
// drivers/experiments/report.cpp and regenerate (the e3, e4 and e7 sections
// then quote /work/main/.stack/…): this fails. So does the README as it was
// before (commit f691026).
TEST_CASE("the README holds no absolute filesystem path of a machine", "[claims][published]") {
    std::ifstream in(std::string(ROSTERRIG_SOURCE_DIR) + "/README.md");
    REQUIRE(in);
    std::string line;
    int number = 0, lines = 0;
    while (std::getline(in, line)) {
        ++number, ++lines;
        INFO("README.md:" << number << ": " << line.substr(0, 300));
        CHECK_FALSE(result::holds_machine_path(line));
    }
    REQUIRE(lines > 100);  // the README was read, not an empty file
}

// Every results file has been re-run since write_result made paths relative
// (experiment 4 was the last), so none may quote a machine.
// Mutation: put an absolute path (/work/main/.stack/logs/flink.log) into any
// string of results/e4_maintenance.json: this fails.
TEST_CASE("no results file holds an absolute filesystem path", "[claims][published]") {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(ROSTERRIG_SOURCE_DIR) + "/results")) {
        if (entry.path().extension() != ".json") continue;
        ++files;
        std::ifstream in(entry.path());
        std::ostringstream text;
        text << in.rdbuf();
        const auto name = entry.path().filename().string();
        INFO(name);
        CHECK_FALSE(result::holds_machine_path(text.str()));
    }
    REQUIRE(files >= 11);
}
