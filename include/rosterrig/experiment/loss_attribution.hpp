// rosterrig/experiment/loss_attribution.hpp: which completed checkpoint
// should have committed each missing record. Flink's Kafka source commits a
// checkpoint's offsets to its group once the checkpoint completes; read each
// second, the group's offsets say in which interval a record's offset was
// first covered by a completed checkpoint. The feed fixes every record's
// partition and offset (the seed decides the partition, one producer writes
// in seq order), so a missing record is attributed to the completed
// checkpoints that finished in that interval: exactly one when one finished
// there, else a range. A bound set by the sampling interval, and labelled so.
#ifndef ROSTERRIG_EXPERIMENT_LOSS_ATTRIBUTION_HPP
#define ROSTERRIG_EXPERIMENT_LOSS_ATTRIBUTION_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/check/missing_ranges.hpp"
#include "rosterrig/experiment/checkpoint_outcome.hpp"

namespace rosterrig::experiment {

/// The source group's committed offsets at one reading.
struct committed_offsets_sample {
    std::int64_t at_ms = 0;                 ///< epoch ms of the reading
    std::vector<std::int64_t> next_offset;  ///< per partition: the next offset to read (-1: none committed)
};
BOOST_DESCRIBE_STRUCT(committed_offsets_sample, (), (at_ms, next_offset))

/// Missing records whose offsets were first seen committed in one interval.
struct loss_window {
    std::int64_t first_checkpoint = -1;  ///< the completed checkpoints that finished in the interval (or one
    std::int64_t last_checkpoint = -1;   ///< interval before it): first == last names one; -1: none did
    std::int64_t covered_at_ms = 0;      ///< epoch ms of the reading that first showed first_seq's offset committed
    std::int64_t timed_out_before = 0;   ///< checkpoints timed out since the completed one before first_checkpoint
    std::uint64_t missing_seqs = 0;
    std::uint64_t first_seq = 0, last_seq = 0;  ///< the smallest and largest missing seq in the window
};
BOOST_DESCRIBE_STRUCT(loss_window, (),
                      (first_checkpoint, last_checkpoint, covered_at_ms, timed_out_before, missing_seqs, first_seq,
                       last_seq))

struct loss_attribution {
    std::int64_t readings = 0;         ///< offset readings the attribution had
    std::int64_t longest_gap_ms = 0;   ///< the longest time between two readings: the bound's width
    std::vector<loss_window> windows;  ///< by first_checkpoint
    std::uint64_t never_covered = 0;   ///< missing seqs whose offset no reading showed committed
};
BOOST_DESCRIBE_STRUCT(loss_attribution, (), (readings, longest_gap_ms, windows, never_covered))

/// Attributes `missing` (ascending, closed) to checkpoints. `partition_of_seq[s - 1]`
/// is seq s's partition; a record's offset is its rank among the earlier seqs
/// of its partition. `readings` are in time order. A checkpoint's offset commit
/// lands after it completes, so the candidates for a record first covered at
/// reading k are the checkpoints that completed after reading k-2 and by
/// reading k: one interval of slack before the interval of the change.
inline loss_attribution attribute_losses(const std::vector<seq_range>& missing,
                                         const std::vector<std::uint32_t>& partition_of_seq,
                                         const std::vector<committed_offsets_sample>& readings,
                                         const std::vector<checkpoint_outcome>& checkpoints) {
    loss_attribution out;
    out.readings = static_cast<std::int64_t>(readings.size());
    for (std::size_t k = 1; k < readings.size(); ++k)
        out.longest_gap_ms = std::max(out.longest_gap_ms, readings[k].at_ms - readings[k - 1].at_ms);
    // Per partition, the largest offset committed by each reading (a restore may step back; the first cover counts).
    std::size_t partitions = 0;
    for (const auto& r : readings) partitions = std::max(partitions, r.next_offset.size());
    std::vector<std::vector<std::int64_t>> covered(partitions, std::vector<std::int64_t>(readings.size(), -1));
    for (std::size_t p = 0; p < partitions; ++p)
        for (std::size_t k = 0; k < readings.size(); ++k) {
            const auto now = p < readings[k].next_offset.size() ? readings[k].next_offset[p] : -1;
            covered[p][k] = std::max(now, k ? covered[p][k - 1] : -1);
        }
    std::vector<checkpoint_outcome> completed, expired;
    for (const auto& c : checkpoints) {
        if (c.status == "COMPLETED") completed.push_back(c);
        if (timed_out(c)) expired.push_back(c);
    }
    std::map<std::pair<std::int64_t, std::int64_t>, loss_window> by_window;
    std::vector<std::int64_t> next_in(partitions + 1, 0);
    auto run = missing.begin();
    const auto n = static_cast<std::uint64_t>(partition_of_seq.size());
    for (std::uint64_t seq = 1; seq <= n && run != missing.end(); ++seq) {
        const auto p = partition_of_seq[seq - 1];
        if (p >= next_in.size()) next_in.resize(p + 1, 0);
        const std::int64_t offset = next_in[p]++;
        while (run != missing.end() && run->last < seq) ++run;
        if (run == missing.end() || seq < run->first) continue;
        if (p >= partitions) {
            ++out.never_covered;
            continue;
        }
        const auto& cov = covered[p];
        const auto k = static_cast<std::size_t>(
            std::upper_bound(cov.begin(), cov.end(), offset, [](std::int64_t o, std::int64_t c) { return o < c; }) -
            cov.begin());
        if (k == cov.size()) {
            ++out.never_covered;
            continue;
        }
        const std::int64_t from = k >= 2 ? readings[k - 2].at_ms : INT64_MIN, to = readings[k].at_ms;
        std::int64_t first = -1, last = -1;
        for (const auto& c : completed)
            if (ended_at_ms(c) > from && ended_at_ms(c) <= to) {
                if (first < 0) first = c.id;
                last = c.id;
            }
        auto& w = by_window[{first, last}];
        if (w.missing_seqs == 0) {
            w.first_checkpoint = first, w.last_checkpoint = last, w.covered_at_ms = to, w.first_seq = seq;
            std::int64_t before = -1;  // the completed checkpoint before `first`
            for (const auto& c : completed)
                if (first >= 0 && c.id < first) before = c.id;
            for (const auto& c : expired)
                if (first >= 0 && c.id > before && c.id < first) ++w.timed_out_before;
        }
        ++w.missing_seqs, w.last_seq = seq;
    }
    for (auto& [key, w] : by_window) out.windows.push_back(w);
    return out;
}

}  // namespace rosterrig::experiment

#endif
