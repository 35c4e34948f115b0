// rosterrig/result/check_json.hpp: the core checks' result types as JSON, so
// results files hold them directly instead of mirror structs: a duplicated seq
// is {"seq", "copies"}, a snapshot as the replay check reads it is its
// fields by name, a closed range of seqs is [first, last] (the strict
// reader reads it back, strict_reader.hpp).
#ifndef ROSTERRIG_RESULT_CHECK_JSON_HPP
#define ROSTERRIG_RESULT_CHECK_JSON_HPP

#include <boost/describe.hpp>
#include <boost/json.hpp>

#include "rosterrig/check/append_check.hpp"
#include "rosterrig/check/commit_replay.hpp"
#include "rosterrig/check/missing_ranges.hpp"

namespace rosterrig {

BOOST_DESCRIBE_STRUCT(seq_copies, (), (seq, copies))

inline void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const seq_range& r) {
    v = boost::json::array{r.first, r.last};
}

}  // namespace rosterrig

namespace rosterrig::check {

// Described here, not beside the struct: the core stays standard-library only.
BOOST_DESCRIBE_STRUCT(snapshot_entry, (),
                      (snapshot_id, operation, writer_id, watermark, added_records, added_data_files, timestamp_ms))

}  // namespace rosterrig::check

#endif
