// rosterrig/result/envelope.hpp: the one result file shape every experiment
// writes (results/<experiment>.json), and typed access to its free-form parts.
//
//   {
//     "experiment": "e1_restart_replay",
//     "parameters": { ... },                      // typed struct via to_json_object
//     "component_versions": {"flink": "1.20.1", ...},  // as the components reported them
//     "code_commit": "<git sha of the code that ran>",
//     "started_at": "2025-...Z", "finished_at": "2025-...Z",
//     "prediction": {"text": ..., "recorded_in_commit": ..., "file": "predictions/e1_restart_replay.json"},
//     "verdict": "held" | "refuted" | "inconclusive",
//     "verdict_reason": "...",
//     "samples": ...,                             // the raw samples, typed via to_json / samples_as
//     "status": "running" | "failed" | "complete",  // absent in files from before it existed: complete
//     "failure": "...",                           // why a failed run stopped
//     "fault_plan": { ... },                      // the faults planned before the first one was applied
//     "created": [{"kind": "topic", "name": ...}] // recorded before each was created
//   }
#ifndef ROSTERRIG_RESULT_ENVELOPE_HPP
#define ROSTERRIG_RESULT_ENVELOPE_HPP

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <boost/describe.hpp>
#include <boost/json.hpp>

#include "rosterrig/prediction/verdict.hpp"
#include "rosterrig/result/json_file.hpp"
#include "rosterrig/result/machine_paths.hpp"
#include "rosterrig/result/run_status.hpp"
#include "rosterrig/result/strict_reader.hpp"

namespace rosterrig {
BOOST_DESCRIBE_ENUM(verdict_kind, held, refuted, inconclusive)
}  // namespace rosterrig

namespace rosterrig::result {

/// The prediction as recorded before the run.
struct prediction_record {
    std::string text;                ///< every prediction, one a line: "id (verdict): text", the text verbatim
                                     ///< from the predictions file (experiment::set_verdict; files from before
                                     ///< it: "id: text")
    std::string recorded_in_commit;  ///< the commit that added it (found by the driver via git)
    std::string file;                ///< e.g. predictions/e1_restart_replay.json
    friend bool operator==(const prediction_record&, const prediction_record&) = default;
};
BOOST_DESCRIBE_STRUCT(prediction_record, (), (text, recorded_in_commit, file))

/// Something a run created on the stack, recorded before it was created, so
/// whatever happens to the run, what it may have left behind is known.
struct created_resource {
    std::string
        kind;  ///< a rosterrig::experiment::resource_kind by name_of(): connector | job | transactional-id-prefix | table | consumer-group | topic
    std::string name;  ///< connector, job id, prefix, <namespace>.<table>, group or topic name
    friend bool operator==(const created_resource&, const created_resource&) = default;
};
BOOST_DESCRIBE_STRUCT(created_resource, (), (kind, name))

/// A run that stopped (failed, or killed) and was resumed: when, on which
/// code, after what, and which history it continued. The samples recorded
/// before are kept; the driver runs only what they lack.
struct resumption {
    std::string at;             ///< ISO-8601 UTC
    std::string code_commit;    ///< the code that ran from here on
    std::string after_failure;  ///< why the run had stopped ("" if it was killed without a word)
    std::string history;        ///< the file it continued
    friend bool operator==(const resumption&, const resumption&) = default;
};
BOOST_DESCRIBE_STRUCT(resumption, (), (at, code_commit, after_failure, history))

struct result_envelope {
    std::string experiment;
    json::object parameters;
    std::map<std::string, std::string> component_versions;
    std::string code_commit;
    std::string started_at;   ///< ISO-8601 UTC
    std::string finished_at;  ///< ISO-8601 UTC
    prediction_record prediction;
    verdict_kind verdict = verdict_kind::inconclusive;
    std::string verdict_reason;
    json::value samples;
    std::optional<run_status> status;  ///< absent (older files): complete
    std::optional<std::string> failure;
    std::optional<json::value> fault_plan;
    std::optional<std::vector<created_resource>> created;
    std::optional<std::vector<resumption>> resumed;
    std::optional<std::string> stack;  ///< the stack description's name; absent for the local stack
    std::optional<std::string>
        table_check;  ///< how tables were checked: streamed, engine or both; absent (older files): streamed

    run_status status_or_complete() const { return status.value_or(run_status::complete); }
};
BOOST_DESCRIBE_STRUCT(result_envelope, (),
                      (experiment, parameters, component_versions, code_commit, started_at, finished_at, prediction,
                       verdict, verdict_reason, samples, status, failure, fault_plan, created, resumed, stack,
                       table_check))

/// Any described struct (or other convertible value) as JSON.
template <class T>
json::value to_json(const T& value) {
    return json::value_from(value);
}

/// A described struct as a JSON object (for result_envelope::parameters).
template <class T>
json::object to_json_object(const T& value) {
    json::value v = json::value_from(value);
    if (!v.is_object()) throw std::invalid_argument("to_json_object: value does not convert to an object");
    return std::move(v.get_object());
}

/// The envelope as JSON, members in the documented order.
inline json::value to_json(const result_envelope& e) { return json::value_from(e); }

/// Reads a result file strictly (read_error names the file and the path).
inline result_envelope read_result(const std::string& file) { return read_json_file<result_envelope>(file); }

/// Every string in `v`, and every member name, with its paths into a state
/// folder written relative to the checkout (machine_paths.hpp).
inline void make_state_paths_relative(json::value& v) {
    if (auto* s = v.if_string()) {
        if (s->find("/" + std::string(state_folder) + "/") != json::string::npos)
            *s = state_folder_relative(std::string(*s));
    } else if (auto* a = v.if_array()) {
        for (auto& x : *a) make_state_paths_relative(x);
    } else if (auto* o = v.if_object()) {
        json::object renamed;
        renamed.reserve(o->size());
        for (auto& [k, x] : *o) {
            make_state_paths_relative(x);
            renamed[state_folder_relative(std::string(k))] = std::move(x);
        }
        *o = std::move(renamed);
    }
}

/// Writes a result file: <file>.tmp, then rename (json_file.hpp). What it
/// writes names no folder of this machine: a path into the stack's state
/// folder (a log to read, a savepoint, a warehouse file a component's message
/// quotes) is written from `.stack/` on.
inline void write_result(const std::string& file, const result_envelope& e) {
    auto v = to_json(e);
    make_state_paths_relative(v);
    write_json_file(file, v);
}

/// The parameters as a typed struct; errors are labelled $.parameters...
template <class T>
T parameters_as(const result_envelope& e, std::string_view file = "<memory>") {
    return strict_value_to<T>(json::value(e.parameters), file, "$.parameters");
}

/// The samples as a typed value; errors are labelled $.samples...
template <class T>
T samples_as(const result_envelope& e, std::string_view file = "<memory>") {
    return strict_value_to<T>(e.samples, file, "$.samples");
}

}  // namespace rosterrig::result

#endif
