// rosterrig/result/prediction_file.hpp: predictions/<experiment>.json, the
// claims recorded (committed) before an experiment runs:
//
//   [ {"id": "e1.upsert-holds-latest", "text": "every upsert table holds each NPI's latest row",
//      "measure": "stale_rows == 0 and missing_npis == 0"}, ... ]
//
// The driver finds the commit that recorded the file with git and copies it,
// with the text, into the result envelope's prediction.
#ifndef ROSTERRIG_RESULT_PREDICTION_FILE_HPP
#define ROSTERRIG_RESULT_PREDICTION_FILE_HPP

#include <string>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/result/strict_reader.hpp"

namespace rosterrig::result {

struct prediction {
    std::string id;       ///< unique within the file
    std::string text;     ///< the claim in words
    std::string measure;  ///< which measured quantity decides it, in words or a small expression
    friend bool operator==(const prediction&, const prediction&) = default;
};
BOOST_DESCRIBE_STRUCT(prediction, (), (id, text, measure))

/// Reads a predictions file strictly; duplicate ids are an error too.
inline std::vector<prediction> read_predictions(const std::string& file) {
    auto list = read_json_file<std::vector<prediction>>(file);
    for (std::size_t i = 0; i < list.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (list[i].id == list[j].id)
                throw read_error(file, "$[" + std::to_string(i) + "].id", "duplicate id \"" + list[i].id + "\"");
    return list;
}

/// The prediction with this id; throws std::out_of_range naming it otherwise.
inline const prediction& find_prediction(const std::vector<prediction>& list, const std::string& id) {
    for (const auto& p : list)
        if (p.id == id) return p;
    throw std::out_of_range("no prediction with id \"" + id + "\"");
}

}  // namespace rosterrig::result

#endif
