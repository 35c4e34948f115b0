// drivers/rosterrig_cli.cpp: the `rosterrig` command line.
//
//   rosterrig generate --seed S [--providers P] [--events N] [--partitions K] [--late-stale F]
//   rosterrig expect   --mode append|upsert --seed S [generator flags]
//   rosterrig check    --mode append|upsert --seed S [generator flags] --rows FILE|-
//
// Exit status: 0 success / table matches, 1 table does not match, 2 bad flag
// or bad input (usage or the offending line on stderr).
#include <cstdio>
#include <algorithm>
#include <fstream>
#include <optional>
#include <unordered_set>
#include <iostream>
#include <string>
#include <vector>
#include <filesystem>
#include <unistd.h>

#include <boost/json.hpp>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/cli/row_lines.hpp>
#include "rosterrig/rosterrig.hpp"

namespace {

namespace json = boost::json;
using rosterrig::cli::arg_parser;
using rosterrig::cli::usage_error;

constexpr int exit_match = 0, exit_mismatch = 1, exit_bad_input = 2;

const char* const top_usage =
    "usage: rosterrig <command> [flags]\n"
    "\n"
    "commands:\n"
    "  generate   write the roster feed for a seed as JSON lines\n"
    "  expect     write the rows a correct append or upsert table holds\n"
    "  check      compare rows read back from a table with the expectation\n"
    "  doctor     check that the rig can run against a stack (rosterrig-doctor, built with the live drivers)\n"
    "\n"
    "`rosterrig <command> --help` describes each command's flags.\n";

/// Buffered stdout writer for JSON lines.
class line_sink {
public:
    void add(const rosterrig::roster_event& e) {
        rosterrig::append_json_line(buffer_, e);
        if (buffer_.size() >= (1u << 20)) flush();
    }
    void flush() {
        if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), stdout) != buffer_.size())
            throw std::runtime_error("cannot write to stdout");
        buffer_.clear();
    }
    ~line_sink() { std::fflush(stdout); }

private:
    std::string buffer_;
};

// The roster flags as one: an empty feed checks nothing (and would "match").
void validate_flags(const rosterrig::roster_spec& spec) {
    if (spec.events == 0) throw usage_error("--events: expected at least 1, got 0");
    rosterrig::validate(spec);
}

int cmd_generate(int argc, char** argv) {
    rosterrig::roster_spec spec;
    arg_parser p{"rosterrig generate", "Writes the roster feed (one JSON object per line, seq order) to stdout."};
    rosterrig::cli::add_roster_flags(p, spec);
    if (!p.parse(argc, argv, 2)) return exit_match;
    validate_flags(spec);
    line_sink out;
    rosterrig::for_each_event(spec, [&](const rosterrig::roster_event& e) { out.add(e); });
    out.flush();
    return exit_match;
}

int cmd_expect(int argc, char** argv) {
    rosterrig::roster_spec spec;
    std::string mode;
    arg_parser p{"rosterrig expect",
                 "Writes the expected table as JSON lines: append = every event once; upsert = one row per NPI,\n"
                 "its last record in arrival order (see docs/EXPECTED_STATE.md)."};
    p.choice("--mode", mode, {"append", "upsert"}, "which table", rosterrig::cli::required);
    rosterrig::cli::add_roster_flags(p, spec);
    if (!p.parse(argc, argv, 2)) return exit_match;
    validate_flags(spec);
    line_sink out;
    if (mode == "append") {
        rosterrig::for_each_event(spec, [&](const rosterrig::roster_event& e) { out.add(e); });
    } else {
        for (const auto& e : rosterrig::expected_latest_by_arrival(spec)) out.add(e);
    }
    out.flush();
    return exit_match;
}

json::array ranges_json(const std::vector<rosterrig::seq_range>& runs) {
    json::array a;
    for (const auto& r : runs) a.push_back(json::array{r.first, r.last});
    return a;
}

template <class V>
json::array numbers_json(const V& v) {
    json::array a;
    for (auto x : v) a.push_back(x);
    return a;
}

int cmd_check(int argc, char** argv) {
    rosterrig::roster_spec spec;
    std::string mode, rows_path;
    arg_parser p{"rosterrig check",
                 "Reads rows read back from a table (JSON lines: seq and npi, plus the provider fields for upsert)\n"
                 "and prints one JSON object comparing them with the expectation. Exit 0 match, 1 mismatch,\n"
                 "2 bad input."};
    p.choice("--mode", mode, {"append", "upsert"}, "which table", rosterrig::cli::required);
    rosterrig::cli::add_roster_flags(p, spec);
    p.option("--rows", rows_path, "FILE", "rows to check, - for stdin", rosterrig::cli::required);
    if (!p.parse(argc, argv, 2)) return exit_match;
    validate_flags(spec);

    std::ifstream file;
    std::istream* in = &std::cin;
    if (rows_path != "-") {
        file.open(rows_path, std::ios::binary);
        if (!file) {
            std::cerr << "rosterrig check: cannot open " << rows_path << "\n";
            return exit_bad_input;
        }
        in = &file;
    }
    const std::string label = rows_path == "-" ? std::string("<stdin>") : rows_path;

    const bool upsert = mode == "upsert";
    std::optional<rosterrig::upsert_expectation> expectation;
    std::optional<rosterrig::upsert_checker> upsert_check;
    if (upsert) {
        expectation = rosterrig::expect_upsert(spec);
        upsert_check.emplace(*expectation);
    }
    // Seq bookkeeping in both modes: duplicates and (for append) missing runs.
    rosterrig::append_checker seq_check{spec.events};

    rosterrig::cli::row_reader reader;
    rosterrig::cli::read_row row;
    std::string line;
    std::uint64_t line_number = 0;
    while (std::getline(*in, line)) {
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank lines are allowed
        try {
            reader.parse(line, row);
            if (!upsert && !row.seq) throw rosterrig::cli::row_error("seq: missing (the append check needs it)");
            if (upsert && !row.seq && !row.has_fields)
                throw rosterrig::cli::row_error("the upsert check needs seq or the provider fields");
        } catch (const rosterrig::cli::row_error& e) {
            std::cerr << "rosterrig check: " << label << ": line " << line_number << ": " << e.what() << "\n";
            return exit_bad_input;
        }
        if (row.seq) seq_check.observe(*row.seq);
        if (upsert) upsert_check->observe(row.observed());
    }
    if (in->bad()) {
        std::cerr << "rosterrig check: " << label << ": read error\n";
        return exit_bad_input;
    }

    const rosterrig::append_result a = seq_check.finish();
    json::object out;
    out["mode"] = mode;
    out["rows"] = a.rows;  // upsert mode replaces it: rows without seq count there
    out["distinct_seq"] = a.distinct_seq;
    out["duplicate_rows"] = a.duplicate_rows;
    json::array dups;
    for (const auto& d : a.duplicates) dups.push_back(json::array{d.seq, d.copies});
    out["duplicates"] = std::move(dups);  // [seq, copies]
    out["out_of_range_rows"] = a.out_of_range_rows;
    bool matches = false;
    if (!upsert) {
        out["missing_seq"] = a.missing_seq;
        out["missing_runs"] = ranges_json(a.missing_runs);
        matches = a.matches();
    } else {
        const rosterrig::upsert_result u = upsert_check->finish();
        out["rows"] = u.rows;
        // Missing runs, upsert flavour: runs of expected seqs whose NPI has no row.
        const auto runs = rosterrig::missing_latest_runs(*expectation, u.missing_npis);
        out["missing_runs"] = ranges_json(runs);
        out["expected_npis"] = expectation->by_npi.size();
        out["distinct_npis"] = u.distinct_npis;
        out["rows_sharing_npi"] = u.rows_sharing_npi;
        json::array shared;
        for (const auto& s : u.shared_npis) shared.push_back(json::array{s.npi, s.copies});
        out["shared_npis"] = std::move(shared);  // [npi, rows]
        out["missing_npis"] = numbers_json(u.missing_npis);
        out["stale_rows"] = u.stale_rows;
        json::array stale;
        for (const auto& s : u.stale)
            stale.push_back(json::object{{"npi", s.npi}, {"seq", s.observed_seq}, {"expected_seq", s.expected_seq}});
        out["stale"] = std::move(stale);
        out["unexpected_rows"] = u.unexpected_rows;
        out["unexpected_npis"] = numbers_json(u.unexpected_npis);
        out["behind_newest_revision"] = u.behind_newest_revision;
        out["stale_by_event_time_npis"] = expectation->stale_by_event_time_npis().size();
        matches = u.matches() && a.duplicate_rows == 0 && a.out_of_range_rows == 0;
    }
    out["matches"] = matches;
    std::cout << json::serialize(out) << "\n";
    return matches ? exit_match : exit_mismatch;
}

}  // namespace

/// `rosterrig doctor` needs the network adapters, which this command never
/// links (it stays embeddable): it runs rosterrig-doctor from beside it, as
/// built (experiments/) or installed (the same folder).
int run_doctor(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto self = fs::read_symlink("/proc/self/exe", ec).parent_path();
    for (const auto& candidate : {self / "experiments" / "rosterrig-doctor", self / "rosterrig-doctor"}) {
        if (::access(candidate.c_str(), X_OK) != 0) continue;
        std::vector<char*> args{const_cast<char*>(candidate.c_str())};
        for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
        args.push_back(nullptr);
        ::execv(candidate.c_str(), args.data());
        std::cerr << "rosterrig doctor: cannot run " << candidate.string() << "\n";
        return exit_bad_input;
    }
    std::cerr << "rosterrig doctor: rosterrig-doctor is not beside " << self.string()
              << " (it is built with the live drivers: build/drivers/experiments/rosterrig-doctor)\n";
    return exit_bad_input;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << top_usage;
        return exit_bad_input;
    }
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << top_usage;
        return exit_match;
    }
    if (command == "doctor") return run_doctor(argc, argv);
    try {
        if (command == "generate") return cmd_generate(argc, argv);
        if (command == "expect") return cmd_expect(argc, argv);
        if (command == "check") return cmd_check(argc, argv);
        std::cerr << "rosterrig: unknown command \"" << command << "\"\n\n" << top_usage;
        return exit_bad_input;
    } catch (const usage_error& e) {
        std::cerr << "rosterrig " << command << ": " << e.what() << "\n\n";
        // print the subcommand's usage: re-run with --help into stderr
        char help[] = "--help";
        char* args[] = {argv[0], argv[1], help, nullptr};
        std::streambuf* old = std::cout.rdbuf(std::cerr.rdbuf());
        try {
            if (command == "generate")
                cmd_generate(3, args);
            else if (command == "expect")
                cmd_expect(3, args);
            else
                cmd_check(3, args);
        } catch (...) {
        }
        std::cout.rdbuf(old);
        return exit_bad_input;
    } catch (const std::invalid_argument& e) {
        std::cerr << "rosterrig " << command << ": " << e.what() << "\n";
        return exit_bad_input;
    } catch (const std::exception& e) {
        std::cerr << "rosterrig " << command << ": " << e.what() << "\n";
        return exit_bad_input;
    }
}
