// rosterrig/experiments/registry.hpp: every experiment, for the code that
// iterates over them (the report, the claim tests): one line each.
#ifndef ROSTERRIG_EXPERIMENTS_REGISTRY_HPP
#define ROSTERRIG_EXPERIMENTS_REGISTRY_HPP

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "rosterrig/experiment/definition.hpp"
#include "rosterrig/experiment/history.hpp"
#include "rosterrig/experiments/e1_restart_replay/e1_restart_replay.hpp"
#include "rosterrig/experiments/e1b_multi_input/e1b_multi_input.hpp"
#include "rosterrig/experiments/e1c_checkpoint_timeouts/e1c_checkpoint_timeouts.hpp"
#include "rosterrig/experiments/e2_savepoint_restore/e2_savepoint_restore.hpp"
#include "rosterrig/experiments/e3_file_size/e3_file_size.hpp"
#include "rosterrig/experiments/e4_maintenance/e4_maintenance.hpp"
#include "rosterrig/experiments/e5_transaction_timeout/e5_transaction_timeout.hpp"
#include "rosterrig/experiments/e6_poll_interval/e6_poll_interval.hpp"
#include "rosterrig/experiments/e7_connect_writer/e7_connect_writer.hpp"
#include "rosterrig/experiments/e7b_connect_rebalance/e7b_connect_rebalance.hpp"
#include "rosterrig/experiments/e8_catalog_commit_faults/e8_catalog_commit_faults.hpp"
#include "rosterrig/experiments/side_by_side.hpp"

namespace rosterrig::experiments {

/// What the report needs of one experiment, with its types erased.
struct entry {
    std::string id;            ///< e1_restart_replay
    std::string section;       ///< the README's marker name: e1
    std::string results_file;  ///< relative to the checkout
    std::string predictions_file;
    /// The driver and its arguments that run this experiment (build/drivers/experiments/...):
    /// scripts/run-all and the quick live tests take the list from here.
    std::string driver;
    /// The README section and the figure files (path relative to the
    /// checkout -> content), rendered from a results file.
    std::function<std::pair<std::string, std::map<std::string, std::string>>(const std::string& file)> render;
    /// The predictions re-judged from a results file, and as the file records them.
    std::function<std::vector<experiment::prediction_outcome>(const std::string& file)> rejudge;
    std::function<std::vector<experiment::prediction_outcome>(const std::string& file)> recorded;
};

/// Rows an experiment's section sets beside other experiments' results
/// (side_by_side.hpp), from its samples, parameters and results file.
template <class E>
using beside_rows =
    std::function<std::string(const typename E::samples&, const typename E::parameters&, const std::string& file)>;

template <experiment::experiment_definition E>
entry entry_for(std::string driver, beside_rows<E> beside = {}) {
    return {E::id,
            E::tag,
            E::results_file,
            E::predictions_file,
            std::move(driver),
            [beside](const std::string& file) {
                auto h = experiment::read_history<E>(file);
                // The README shows full runs: a quick run copied into results/ is refused, not published.
                if (h.parameters.quick)
                    throw std::invalid_argument(file + " holds a --quick run; the README shows full runs only");
                if constexpr (requires { E::report_section(h.envelope, h.samples, h.parameters, std::string()); }) {
                    if (beside)
                        return std::make_pair(E::report_section(h.envelope, h.samples, h.parameters,
                                                                beside(h.samples, h.parameters, file)),
                                              E::figures(h.samples, h.parameters));
                } else if (beside) {
                    throw std::logic_error(
                        std::string(E::id) +
                        ": the registry sets rows beside its section, but its report_section takes none");
                }
                return std::make_pair(E::report_section(h.envelope, h.samples, h.parameters),
                                      E::figures(h.samples, h.parameters));
            },
            [](const std::string& file) { return experiment::rejudge(experiment::read_history<E>(file)); },
            [](const std::string& file) { return experiment::read_history<E>(file).samples.predictions; }};
}

/// The claim tests of an experiment, by the file-name convention
/// (test/claims/<tag>_claims.tests.cpp); claim_registry.tests.cpp checks every one exists.
inline std::string claims_file_of(const entry& e) { return "test/claims/" + e.section + "_claims.tests.cpp"; }

inline std::vector<entry> registry() {
    return {entry_for<e1::definition>("rosterrig-e1"),
            entry_for<e1b::definition>("rosterrig-e1 --multi-input"),
            entry_for<e1c::definition>("rosterrig-e1c"),
            entry_for<e2::definition>("rosterrig-e2"),
            entry_for<e3::definition>("rosterrig-e3"),
            entry_for<e4::definition>("rosterrig-e4"),
            entry_for<e5::definition>("rosterrig-e5"),
            entry_for<e6::definition>("rosterrig-e6"),
            entry_for<e7::definition>("rosterrig-e7", connect_beside_flink_results),
            entry_for<e7b::definition>("rosterrig-e7b"),
            entry_for<e8::definition>("rosterrig-e8")};
}

}  // namespace rosterrig::experiments

#endif
