// rosterrig-report: every result table and figure in the README comes from
// here, rendered from results/*.json by each experiment's own report section
// (include/rosterrig/experiments/registry.hpp). It rewrites the README between
// <!-- BEGIN name --> and <!-- END name --> markers and writes the figures.
// `--check` exits 1 when the README or a figure differs from what the results
// say, or a section's markers are missing (CI runs it): a hand-edited number
// cannot survive, and neither can a deleted section. It also exits 1 when the
// README's hand-written prose carries a figure no result yields
// (report/prose_figures.hpp) and prose_allowed below does not list.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/generate/timestamp.hpp>
#include <rosterrig/experiments/claims.hpp>
#include <rosterrig/experiments/registry.hpp>
#include <rosterrig/report/findings.hpp>
#include <rosterrig/report/prose_figures.hpp>
#include <rosterrig/report/readme_splice.hpp>
#include <rosterrig/report/result_numbers.hpp>
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
        auto epoch = [](const boost::json::value& iso) {
            const auto ms = parse_iso8601_utc(iso.as_string());
            if (!ms) throw std::invalid_argument("not an ISO-8601 UTC time");
            return *ms / 1000;
        };
        return epoch(env.at("finished_at")) - epoch(env.at("started_at"));
    } catch (const std::exception&) {
        return -1;
    }
}

// Figures in the README's prose that come from elsewhere than results/, each
// with where it comes from. Matched against the figure as written ("128 MB").
// Keep it short: a figure a run measured belongs in a result, and a
// parameter in the result's `parameters`.
constexpr report::allowed_figure prose_allowed[] = {
    {"128 MB", "Parquet's default row-group size as Iceberg documents it (write.parquet.row-group-size-bytes)"},
    {"48 MB",
     "S3FileIO's default multipart threshold, s3.multipart.size (32 MB) × 1.5, from Iceberg's docs "
     "(today some result number also renders as 48 MB, by chance)"},
};

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error(p.string() + ": cannot read");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The numbers the results yield: the numbers of each results/*.json's
// parameters, verdict and predictions (report/result_numbers.hpp's
// numbers_in_result_parts; not its raw samples), each run's length in
// seconds (what --list prints), and every number the generated sections
// print (a median or a share the report derives is a result's figure too).
std::vector<double> yielded_numbers(const fs::path& root, const std::string& generated_doc) {
    std::vector<double> numbers;
    std::vector<fs::path> results;
    for (const auto& entry : fs::directory_iterator(root / "results"))
        if (entry.path().extension() == ".json") results.push_back(entry.path());
    std::sort(results.begin(), results.end());
    for (const auto& r : results) {
        report::numbers_in_result_parts(result::parse_file(r.string()), numbers);
        if (const auto seconds = run_seconds(r); seconds >= 0) numbers.push_back(static_cast<double>(seconds));
    }
    for (const auto& name : report::section_names(generated_doc)) {
        const auto b = generated_doc.find(report::begin_marker(name)), e = generated_doc.find(report::end_marker(name));
        if (b != std::string::npos && e != std::string::npos && b < e)
            report::numbers_in_text(std::string_view(generated_doc).substr(b, e - b), numbers);
    }
    return numbers;
}

// 1 when the README's hand-written prose has a figure with no source, each
// named with its line; 0 otherwise.
int check_prose_figures(const fs::path& root, const std::string& readme, const std::string& generated_doc) {
    const auto orphans = report::unsourced_figures(readme, yielded_numbers(root, generated_doc), prose_allowed);
    for (const auto& f : orphans)
        std::cerr << "rosterrig-report: README.md:" << f.line << ": \"" << f.written
                  << "\" in hand-written prose has no source in results/ (" << f.context
                  << "); generate it, remove it, or list it in report.cpp's prose_allowed with where it comes from\n";
    return orphans.empty() ? 0 : 1;
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
    std::string doc;
    try {
        doc = read_file(readme);
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
        try {
            rc = std::max(rc, check_prose_figures(fs::path(root), read_file(readme), doc));
        } catch (const std::exception& e) {
            std::cerr << "rosterrig-report: " << e.what() << "\n";
            return 2;
        }
        for (const auto& [p, text] : files)
            if (!fs::exists(p) || read_file(p) != text) {
                std::cerr << "rosterrig-report: " << p.string()
                          << " differs from what the results say; run rosterrig-report\n";
                rc = 1;
            }
        return rc;
    }
    for (const auto& [p, text] : files) result::write_file_atomically(p.string(), text);
    return 0;
}
