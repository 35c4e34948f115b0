// A minimal experiment definition, compiled by contract_compile_fail.cmake
// once as written (it must compile) and once per mistake a definition can
// make (each must not): PROBE selects the mistake.
#include <map>
#include <string>
#include <vector>

#include <rosterrig/experiment/experiment_traits.hpp>

namespace probe {

using namespace rosterrig;

struct parameters {
    std::uint64_t seed = 1;
    bool quick = false;
    experiment::warehouse warehouse = experiment::warehouse::s3;
    static parameters full() { return {}; }
    static parameters quick_run() { return {}; }
};

struct samples {
    std::vector<experiment::prediction_outcome> predictions;
};

struct definition {
    using parameters = probe::parameters;
    using samples = probe::samples;
    static constexpr const char* id = "p1_probe";
    static constexpr const char* tag = "p1";
    static constexpr const char* predictions_file = "predictions/p1_probe.json";
#if PROBE != 4
    static constexpr const char* results_file = "results/p1_probe.json";
#endif
#if PROBE == 1
    static constexpr experiment::hooks<parameters> hooks{.resumible = true, .warehouse = &parameters::warehouse};
#elif PROBE == 3
    static constexpr experiment::hooks<parameters> hook{.resumable = true, .warehouse = &parameters::warehouse};
#else
    static constexpr experiment::hooks<parameters> hooks{.resumable = true, .warehouse = &parameters::warehouse};
#endif
#if PROBE == 2
    static constexpr bool resumable = true;
#endif
    static std::vector<experiment::rule<samples, parameters>> rules() { return {}; }
    static experiment::fault_plan fault_plan(const parameters&) { return {}; }
    static std::string report_section(const result::result_envelope&, const samples&, const parameters&) { return {}; }
    static std::map<std::string, std::string> figures(const samples&, const parameters&) { return {}; }
};

}  // namespace probe

static_assert(rosterrig::experiment::experiment_traits<probe::definition>::resumable);
