#include "jobs/writer_checkpoints.hpp"

namespace rosterrig::live {

void collect_checkpoints(session& s, const std::string& job, const std::string& writer_vertex, std::size_t at,
                         history_writer<e1b::definition>& h) {
    const auto known =
        h.read([&](const e1b::samples& x) { return experiment::ids_of(x.configurations[at].checkpoints); });
    const auto seen = s.flink.checkpoint_stats(job, writer_vertex, known);
    h.record([&](e1b::samples& x) { experiment::merge_checkpoints(x.configurations[at].checkpoints, seen); });
}

}  // namespace rosterrig::live
