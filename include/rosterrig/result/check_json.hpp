// rosterrig/result/check_json.hpp: the core checks' result types as JSON, so
// results files hold them directly instead of mirror structs: a duplicated seq
// is {"seq", "copies"}, a closed range of seqs is [first, last] (the strict
// reader reads it back, strict_reader.hpp).
#ifndef ROSTERRIG_RESULT_CHECK_JSON_HPP
#define ROSTERRIG_RESULT_CHECK_JSON_HPP

#include <boost/describe.hpp>
#include <boost/json.hpp>

#include "rosterrig/check/append_check.hpp"
#include "rosterrig/check/missing_ranges.hpp"

namespace rosterrig {

BOOST_DESCRIBE_STRUCT(seq_copies, (), (seq, copies))

inline void tag_invoke(boost::json::value_from_tag, boost::json::value& v, const seq_range& r) {
    v = boost::json::array{r.first, r.last};
}

}  // namespace rosterrig

#endif
