// rosterrig/experiment/snapshot_chain.hpp: the snapshots a table gained since
// a known one, found by following parent links back from the current snapshot
// (the catalog lists snapshots in no promised order, and expired ones vanish).
#ifndef ROSTERRIG_EXPERIMENT_SNAPSHOT_CHAIN_HPP
#define ROSTERRIG_EXPERIMENT_SNAPSHOT_CHAIN_HPP

#include <map>
#include <vector>

namespace rosterrig::experiment {

/// Oldest first: the snapshots from just after `since` up to `current`.
/// `id_of` and `parent_of` read a snapshot's id and parent id (-1: none). The
/// walk stops at `since`, at a missing parent, or at the root.
template <class Snapshot, class IdOf, class ParentOf>
std::vector<Snapshot> snapshots_since(const std::vector<Snapshot>& all, long long current, long long since, IdOf id_of,
                                      ParentOf parent_of) {
    std::map<long long, const Snapshot*> by_id;
    for (const auto& s : all) by_id[id_of(s)] = &s;
    std::vector<Snapshot> newest_first;
    for (long long id = current; id != -1 && id != since;) {
        auto it = by_id.find(id);
        if (it == by_id.end()) break;
        newest_first.push_back(*it->second);
        id = parent_of(*it->second);
        if (newest_first.size() > all.size()) break;  // a cycle would be a catalog bug; never loop
    }
    return {newest_first.rbegin(), newest_first.rend()};
}

}  // namespace rosterrig::experiment

#endif
