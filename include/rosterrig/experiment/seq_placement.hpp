// rosterrig/experiment/seq_placement.hpp: where a table's seqs are, per Kafka
// partition: for every snapshot, the span of seqs of each partition its data
// files added, and each missing run's seqs split by partition. The seeded feed
// fixes every seq's partition (generate/partition.hpp) and one producer writes
// each partition in seq order, so within a partition seq order is offset
// order: a snapshot's seqs of one partition are the offsets its checkpoints
// read there. Trino answers with islands (ranges of seqs whose rows all come
// from files one snapshot added, so a big table is not streamed to the rig
// again: a few per checkpoint); the table's missing runs and the feed's
// partition of each seq make the spans exact.
#ifndef ROSTERRIG_EXPERIMENT_SEQ_PLACEMENT_HPP
#define ROSTERRIG_EXPERIMENT_SEQ_PLACEMENT_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/check/missing_ranges.hpp"
#include "rosterrig/generate/generator.hpp"

namespace rosterrig::experiment {

/// Trino's answer: the rows with seqs first..last are all read from data
/// files snapshot `snapshot_id` added (-1: a file "$entries" does not list):
/// no row of another snapshot has a seq between them. A seq in that range on
/// no row is missing from the table, so the snapshot holds first..last less
/// the table's missing runs. `seqs`: the distinct seqs Trino counted (0: not
/// given), held to that.
struct seq_island {
    std::int64_t snapshot_id = -1;
    std::uint64_t first = 0, last = 0;
    std::uint64_t seqs = 0;
};

/// The seqs of one partition that one snapshot's data files hold.
struct seq_span {
    std::int64_t snapshot_id = -1;  ///< -1: rows in files no listed snapshot added
    std::uint64_t partition = 0;
    std::uint64_t first_seq = 0, last_seq = 0;  ///< the smallest and largest
    std::uint64_t seqs = 0;                     ///< distinct seqs (a duplicate row is not counted)
};
BOOST_DESCRIBE_STRUCT(seq_span, (), (snapshot_id, partition, first_seq, last_seq, seqs))

/// The missing seqs of one partition within one missing run.
struct missing_piece {
    std::uint64_t run = 0;  ///< index into the run's missing_runs
    std::uint64_t partition = 0;
    std::uint64_t first_seq = 0, last_seq = 0;  ///< the smallest and largest missing seq of this partition in the run
    std::uint64_t seqs = 0;                     ///< how many (every seq of the partition between them)
};
BOOST_DESCRIBE_STRUCT(missing_piece, (), (run, partition, first_seq, last_seq, seqs))

/// A run's placement: the spans, ordered by snapshot then partition, and the
/// pieces, by run then partition. The pieces follow from the missing runs and
/// the seeded feed, so runs store none now (a run that lost hundreds of
/// thousands of runs carried tens of MB of them); runs from before keep theirs.
struct seq_placement {
    std::vector<seq_span> spans;
    std::vector<missing_piece> missing;
};
BOOST_DESCRIBE_STRUCT(seq_placement, (), (spans, missing))

/// seq s's partition at [s - 1], from the records of a feed (any type with `seq` and `partition`).
template <class Records>
std::vector<std::uint32_t> partition_by_seq(const Records& records) {
    std::vector<std::uint32_t> out(records.size());
    for (const auto& r : records) out.at(static_cast<std::size_t>(r.seq - 1)) = static_cast<std::uint32_t>(r.partition);
    return out;
}

/// seq s's partition at [s - 1], regenerated from the seeded feed; streamed, so no event is kept.
inline std::vector<std::uint32_t> partition_by_seq_of(const roster_spec& spec) {
    std::vector<std::uint32_t> out(static_cast<std::size_t>(spec.events));
    for_each_event(spec, [&](const roster_event& e) { out.at(static_cast<std::size_t>(e.seq - 1)) = e.partition; });
    return out;
}

namespace detail {
inline std::uint32_t partition_at(const std::vector<std::uint32_t>& partition_of_seq, std::uint64_t seq) {
    if (seq == 0 || seq > partition_of_seq.size())
        throw std::out_of_range("seq " + std::to_string(seq) + " is not in the feed of " +
                                std::to_string(partition_of_seq.size()) + " events");
    return partition_of_seq[static_cast<std::size_t>(seq - 1)];
}
}  // namespace detail

/// Each snapshot's span per partition, from Trino's islands less the table's
/// missing runs (ascending, disjoint). Seqs the feed never had (0, or above
/// its events) have no partition and are left out: the table's check counts
/// them. Throws std::logic_error when an island within the feed holds another
/// count of seqs than Trino gave: the query and this reading disagree.
inline std::vector<seq_span> spans_of(const std::vector<seq_island>& islands,
                                      const std::vector<std::uint32_t>& partition_of_seq,
                                      const std::vector<seq_range>& missing_runs) {
    std::map<std::pair<std::int64_t, std::uint32_t>, seq_span> by;
    const std::uint64_t events = partition_of_seq.size();
    for (const auto& i : islands) {
        const std::uint64_t lo = std::max<std::uint64_t>(i.first, 1), hi = std::min(i.last, events);
        auto m = std::lower_bound(missing_runs.begin(), missing_runs.end(), lo,
                                  [](const seq_range& r, std::uint64_t seq) { return r.last < seq; });
        std::uint64_t held = 0;
        for (std::uint64_t seq = lo; seq <= hi; ++seq) {
            while (m != missing_runs.end() && m->last < seq) ++m;
            if (m != missing_runs.end() && m->first <= seq) continue;
            const auto p = partition_of_seq[static_cast<std::size_t>(seq - 1)];
            auto [it, fresh] = by.try_emplace({i.snapshot_id, p}, seq_span{i.snapshot_id, p, seq, seq, 0});
            auto& s = it->second;
            s.first_seq = std::min(s.first_seq, seq), s.last_seq = std::max(s.last_seq, seq), ++s.seqs, ++held;
        }
        if (i.seqs != 0 && lo == i.first && hi == i.last && held != i.seqs)
            throw std::logic_error("seq placement: snapshot " + std::to_string(i.snapshot_id) + "'s seqs " +
                                   std::to_string(i.first) + "-" + std::to_string(i.last) + " hold " +
                                   std::to_string(i.seqs) + " distinct seqs by Trino, " + std::to_string(held) +
                                   " by the table's missing runs");
    }
    std::vector<seq_span> out;
    out.reserve(by.size());
    for (auto& [key, s] : by) out.push_back(s);
    return out;
}

/// Each missing run split by partition, in run order.
inline std::vector<missing_piece> pieces_of(const std::vector<seq_range>& runs,
                                            const std::vector<std::uint32_t>& partition_of_seq) {
    std::vector<missing_piece> out;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        std::map<std::uint32_t, missing_piece> by;
        for (std::uint64_t seq = runs[k].first; seq <= runs[k].last; ++seq) {
            const auto p = detail::partition_at(partition_of_seq, seq);
            auto [it, fresh] = by.try_emplace(p, missing_piece{k, p, seq, seq, 0});
            it->second.last_seq = seq, ++it->second.seqs;
        }
        for (auto& [p, piece] : by) out.push_back(piece);
    }
    return out;
}

}  // namespace rosterrig::experiment

#endif
