// rosterrig/experiment/missing_run_attribution.hpp: which commit should have
// carried each missing run of seqs, from what each snapshot added per Kafka
// partition (seq_placement.hpp), the snapshots in commit order with the
// checkpoint each committed (flink.max-committed-checkpoint-id, "W" below)
// and Flink's checkpoint history.
//
// A missing run is split by partition (a "piece": the missing seqs of one
// partition in the run, first..last). Within a partition seq order is offset
// order, the order the source reads. For a piece of partition p:
// - S_prev: the last snapshot in commit order whose seqs of p include one
//   below the piece's first; S_next: the first in commit order whose seqs of
//   p include one above its last. Commit order is the order the catalog lists
//   the snapshots. Spans of files no listed snapshot added are not used.
// - hole (S_prev == S_next = S): S carries seqs of p read before and after
//   the piece, so the piece was read within the checkpoints S committed:
//   S's commit (checkpoint W(S)) should have carried it. Exact, given that
//   commits carry each partition's seqs in commit order: when another
//   commit's seqs of p fall within S's span (a replay, a late commit of an
//   older checkpoint), the piece is named the same but not exact.
// - between (S_prev committed before S_next): the piece was read after the
//   last seq of p S_prev carries and before the first S_next carries. The
//   commit that should have carried it is S_prev's (when S_prev's checkpoint
//   lost files holding its last seqs of p: a writer's file is not cut by
//   offset), S_next's, or a commit between: a bound, checkpoints
//   W(S_prev)..W(S_next).
// - lost_at_end (no S_next): no commit carries a later seq of p; the bound is
//   open above, from W(S_prev). lost_at_start (no S_prev): up to W(S_next).
// - out_of_order (S_prev committed after S_next, e.g. a replay): a bound,
//   the two commits' checkpoints. no_snapshot: no snapshot carries p at all.
// With each piece: the checkpoints the recorded history shows failed (timed
// out or otherwise) inside its window: strictly between W(S_prev) and
// W(S_next) (open ends unbounded); for a hole, the checkpoints S's commit
// spanned, strictly between the previous commit's W (any listed snapshot with
// a W; 0 before the first) and W(S). The history is polled, so these lists
// may miss some (a lower bound), never add one. A snapshot without a W
// (-1) leaves its checkpoint unknown and the piece not exact.
#ifndef ROSTERRIG_EXPERIMENT_MISSING_RUN_ATTRIBUTION_HPP
#define ROSTERRIG_EXPERIMENT_MISSING_RUN_ATTRIBUTION_HPP

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rosterrig/check/commit_replay.hpp"
#include "rosterrig/check/missing_ranges.hpp"
#include "rosterrig/experiment/checkpoint_outcome.hpp"
#include "rosterrig/experiment/seq_placement.hpp"

namespace rosterrig::experiment {

enum class attribution_kind { hole, between, lost_at_end, lost_at_start, out_of_order, no_snapshot };

struct piece_attribution {
    missing_piece piece;
    attribution_kind kind = attribution_kind::no_snapshot;
    std::int64_t prev_snapshot = -1, next_snapshot = -1;      ///< S_prev, S_next (-1: none)
    std::int64_t prev_checkpoint = -1, next_checkpoint = -1;  ///< their W (-1: none or unknown)
    /// The checkpoint whose commit should have carried the piece: first..last
    /// (equal when exact; -1 at an open or unknown end).
    std::int64_t first_checkpoint = -1, last_checkpoint = -1;
    bool exact = false;
    std::vector<std::int64_t> timed_out;     ///< in the window, by the history
    std::vector<std::int64_t> failed_other;  ///< failed for another reason, in the window
};

struct missing_run_attribution {
    seq_range run;
    std::vector<piece_attribution> pieces;  ///< one per partition the run holds seqs of
};

/// One attribution per missing run (in run order), its pieces from `pieces` (missing_piece::run indexes `runs`).
inline std::vector<missing_run_attribution> attribute_missing_runs(const std::vector<seq_range>& runs,
                                                                   const std::vector<missing_piece>& pieces,
                                                                   const std::vector<seq_span>& spans,
                                                                   const std::vector<check::snapshot_entry>& snapshots,
                                                                   const std::vector<checkpoint_outcome>& checkpoints) {
    struct commit {
        std::size_t at = 0;           // position in commit order
        std::int64_t watermark = -1;  // W
        std::int64_t before = 0;      // the previous listed W (0: none)
    };
    std::map<std::int64_t, commit> commits;
    std::int64_t last_w = 0;
    for (std::size_t k = 0; k < snapshots.size(); ++k) {
        commits[snapshots[k].snapshot_id] = {k, snapshots[k].watermark, last_w};
        if (snapshots[k].watermark >= 0) last_w = snapshots[k].watermark;
    }
    std::map<std::uint64_t, std::vector<const seq_span*>> by_partition;
    for (const auto& s : spans)
        if (s.snapshot_id >= 0 && commits.count(s.snapshot_id)) by_partition[s.partition].push_back(&s);
    constexpr auto unbounded = std::numeric_limits<std::int64_t>::max();
    auto window = [&](piece_attribution& a, std::int64_t above, std::int64_t below) {  // strictly between
        for (const auto& c : checkpoints)
            if (c.id > above && c.id < below && c.status == "FAILED")
                (timed_out(c) ? a.timed_out : a.failed_other).push_back(c.id);
    };

    std::vector<missing_run_attribution> out;
    out.reserve(runs.size());
    for (const auto& r : runs) out.push_back({r, {}});
    for (const auto& piece : pieces) {
        piece_attribution a;
        a.piece = piece;
        const seq_span* prev = nullptr;
        const seq_span* next = nullptr;
        for (const auto* s : by_partition[piece.partition]) {
            const auto at = commits.at(s->snapshot_id).at;
            if (s->first_seq < piece.first_seq && (!prev || commits.at(prev->snapshot_id).at < at)) prev = s;
            if (s->last_seq > piece.last_seq && (!next || at < commits.at(next->snapshot_id).at)) next = s;
        }
        if (prev) a.prev_snapshot = prev->snapshot_id, a.prev_checkpoint = commits.at(prev->snapshot_id).watermark;
        if (next) a.next_snapshot = next->snapshot_id, a.next_checkpoint = commits.at(next->snapshot_id).watermark;
        if (prev && next && prev->snapshot_id == next->snapshot_id) {
            a.kind = attribution_kind::hole;
            a.first_checkpoint = a.last_checkpoint = a.prev_checkpoint;
            // Exact only if no other commit's seqs of p fall within S's: else the commits interleave.
            const auto& mine = by_partition[piece.partition];
            a.exact = a.prev_checkpoint >= 0 && std::none_of(mine.begin(), mine.end(), [&](const seq_span* o) {
                          return o != prev && o->first_seq <= prev->last_seq && o->last_seq >= prev->first_seq;
                      });
            window(a, commits.at(prev->snapshot_id).before, a.prev_checkpoint);
        } else if (prev && next) {
            const bool in_order = commits.at(prev->snapshot_id).at < commits.at(next->snapshot_id).at;
            a.kind = in_order ? attribution_kind::between : attribution_kind::out_of_order;
            a.first_checkpoint = in_order ? a.prev_checkpoint : a.next_checkpoint;
            a.last_checkpoint = in_order ? a.next_checkpoint : a.prev_checkpoint;
            window(a, a.first_checkpoint, a.last_checkpoint < 0 ? unbounded : a.last_checkpoint);
        } else if (prev) {
            a.kind = attribution_kind::lost_at_end;
            a.first_checkpoint = a.prev_checkpoint;
            window(a, a.prev_checkpoint, unbounded);
        } else if (next) {
            a.kind = attribution_kind::lost_at_start;
            a.last_checkpoint = a.next_checkpoint;
            window(a, 0, a.next_checkpoint < 0 ? unbounded : a.next_checkpoint);
        }
        out.at(static_cast<std::size_t>(piece.run)).pieces.push_back(std::move(a));
    }
    return out;
}

}  // namespace rosterrig::experiment

#endif
