// rosterrig-report: every result table and figure in the README comes from
// here, rendered from results/*.json by each experiment's own report section
// (include/rosterrig/experiments/registry.hpp). It rewrites the README between
// <!-- BEGIN name --> and <!-- END name --> markers and writes the figures.
// `--check` exits 1 when the README or a figure differs from what the results
// say, or a section's markers are missing (CI runs it): a hand-edited number
// cannot survive, and neither can a deleted section.
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/experiments/claims.hpp>
#include <rosterrig/experiments/registry.hpp>
#include <rosterrig/report/findings.hpp>
#include <rosterrig/report/readme_splice.hpp>
#include <rosterrig/result/json_file.hpp>
#include <rosterrig/result/machine_paths.hpp>
#include <rosterrig/result/strict_reader.hpp>

using namespace rosterrig;
namespace fs = std::filesystem;

namespace {

// How long a result's run took, from its envelope's timestamps (seconds; -1 when unreadable).
long long run_seconds(const fs::path& result) {
    try {
        const auto env = result::parse_file(result.string()).as_object();
        auto epoch = [](const std::string& iso) {
            std::tm tm{};
            std::istringstream in(iso);
            in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%S");
            if (in.fail()) throw std::invalid_argument(iso);
            return static_cast<long long>(timegm(&tm));
        };
        return epoch(std::string(env.at("finished_at").as_string())) - epoch(std::string(env.at("started_at").as_string()));
    } catch (const std::exception&) {
        return -1;
    }
}

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error(p.string() + ": cannot read");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

int main(int argc, char** argv) {
    std::string root = ".";
    bool check = false, list = false;
    cli::arg_parser args{"rosterrig-report",
                         "Regenerates the README's result sections and their figures from results/*.json."};
    args.option("--root", root, "DIR", "the checkout (default .)");
    args.flag("--check", check, "change nothing; exit 1 if the README or a figure differs from what the results say");
    args.flag("--list", list,
              "print the registered experiments, one per line: tag, driver command, results file, seconds its "
              "shipped full run took (-1: none); scripts/run-all runs this list");
    try {
        if (!args.parse(argc, argv)) return 0;
    } catch (const cli::usage_error& e) {
        std::cerr << "rosterrig-report: " << e.what() << "\n" << args.usage();
        return 2;
    }
    if (list) {
        for (const auto& e : experiments::registry())
            std::cout << e.section << '\t' << e.driver << '\t' << e.results_file << '\t'
                      << run_seconds(fs::path(root) / e.results_file) << '\n';
        return 0;
    }
    const fs::path readme = fs::path(root) / "README.md";
    std::map<fs::path, std::string> files;  // what each file must hold
    int missing = 0;                        // registered experiments without a results file
    try {
        std::string doc = read_file(readme);
        std::vector<report::experiment_findings> findings;
        for (const auto& e : experiments::registry()) {
            const fs::path result = fs::path(root) / e.results_file;
            if (!fs::exists(result)) {
                // A registered experiment with no result cannot be checked: --check fails.
                std::cerr << "rosterrig-report: " << e.results_file << " does not exist; section " << e.section
                          << (check ? " cannot be checked\n" : " left as it is\n");
                ++missing;
                continue;
            }
            auto [section, figures] = e.render(result.string());
            // Results recorded before write_result made them relative still
            // quote this machine's state folder: rendered from `.stack/` on.
            report::splice_section(doc, e.section, result::state_folder_relative(section));
            for (auto& [path, text] : figures) files[fs::path(root) / path] = std::move(text);
            findings.push_back({e.section, experiments::claims_file_of(e), e.recorded(result.string())});
        }
        report::splice_section(doc, "findings", result::state_folder_relative(report::findings_section(findings)));
        report::splice_section(doc, "claims", experiments::claims_section());
        files[readme] = doc;
    } catch (const report::missing_section& e) {
        std::cerr << "rosterrig-report: README.md: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-report: " << e.what() << "\n";
        return 2;
    }
    if (check) {
        int rc = missing ? 1 : 0;
        for (const auto& [p, text] : files)
            if (!fs::exists(p) || read_file(p) != text) {
                std::cerr << "rosterrig-report: " << p.string() << " differs from what the results say; run rosterrig-report\n";
                rc = 1;
            }
        return rc;
    }
    for (const auto& [p, text] : files) result::write_file_atomically(p.string(), text);
    return 0;
}
