// rosterrig/experiment/file_commits.hpp: a data file that two snapshots of a
// table added. Each commit of a streaming writer adds the files its writers
// closed since the last one; the same file_path added again by a later
// snapshot is counted twice by every reader, and it is the signature users
// report of a commit replayed after a rebalance (apache/iceberg#16282: the
// same Parquet file in two snapshots). Read from the table's metadata, every
// manifest of every snapshot: exact.
#ifndef ROSTERRIG_EXPERIMENT_FILE_COMMITS_HPP
#define ROSTERRIG_EXPERIMENT_FILE_COMMITS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include <boost/describe.hpp>

namespace rosterrig::experiment {

struct file_added_twice {
    std::string file_path;
    std::vector<std::int64_t> snapshots;  ///< every snapshot whose manifests list it as ADDED, two or more
    friend bool operator==(const file_added_twice&, const file_added_twice&) = default;
};
BOOST_DESCRIBE_STRUCT(file_added_twice, (), (file_path, snapshots))

}  // namespace rosterrig::experiment

#endif
