// rosterrig-recovery-compare: experiment 1 runs under different stack settings,
// side by side. Each argument is LABEL=FILE (an e1 result or history); the
// output is one markdown table: per recovery phase, the median and max ms
// after the kill over every kill of every configuration in the file, and the
// ratio of the medians to the first file's. Used for docs/BENCHMARKS.md,
// "Recovery after a TaskManager kill".
#include <rosterrig/experiment/history.hpp>
#include <rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp>

#include <algorithm>
#include <iostream>

using namespace rosterrig;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: rosterrig-recovery-compare LABEL=FILE [LABEL=FILE ...]\n";
        return 2;
    }
    std::vector<std::string> labels;
    std::vector<std::vector<experiment::phase_summary>> columns;
    std::vector<double> gaps;  // median seconds from one kill to the next, per file
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string arg = argv[i];
            const auto eq = arg.find('=');
            if (eq == std::string::npos || eq == 0) throw std::invalid_argument("'" + arg + "' is not LABEL=FILE");
            const auto h = experiment::read_history<e1::definition>(arg.substr(eq + 1));
            std::vector<experiment::phase_list> all;
            std::vector<double> between;
            for (const auto& c : h.samples.configurations) {
                const auto r = e1::recoveries_of(c);
                all.insert(all.end(), r.begin(), r.end());
                for (std::size_t k = 1; k < c.kills.size(); ++k)
                    between.push_back(static_cast<double>(c.kills[k].killed_at_ms - c.kills[k - 1].killed_at_ms) /
                                      1000.0);
            }
            if (all.empty()) throw std::invalid_argument(arg.substr(eq + 1) + " has no kill with recovery moments");
            labels.push_back(arg.substr(0, eq) + " (" + std::to_string(all.size()) + " kills)");
            columns.push_back(experiment::summarize_phases(all));
            gaps.push_back(between.empty() ? 0.0 : stats::summarize(between).median);
        }
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-recovery-compare: " << e.what() << "\n";
        return 2;
    }
    std::vector<std::string> header{"Phase (ms after the kill)"};
    for (std::size_t i = 0; i < labels.size(); ++i)
        header.push_back(labels[i] + (i == 0 ? ": median / max" : ": median / max (× first)"));
    report::markdown_table t{header};
    for (const auto& p : columns.front()) {
        std::vector<std::string> cells{p.phase};
        for (const auto& col : columns) {
            const auto it = std::find_if(col.begin(), col.end(), [&](const auto& q) { return q.phase == p.phase; });
            if (it == col.end()) {
                cells.push_back("—");
                continue;
            }
            std::string cell = report::fixed(it->median_ms, 0) + " / " + report::fixed(it->max_ms, 0);
            if (&col != &columns.front() && p.median_ms > 0)
                cell += " (" + report::fixed(it->median_ms / p.median_ms, 2) + ")";
            cells.push_back(cell);
        }
        t.row(cells);
    }
    std::vector<std::string> cycle{"seconds from one kill to the next (median)"};
    for (double g : gaps) cycle.push_back(report::fixed(g, 1));
    t.row(cycle);
    std::cout << t.render();
    return 0;
}
