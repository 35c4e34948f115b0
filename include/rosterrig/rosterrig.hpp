// rosterrig/rosterrig.hpp: the whole pure core (standard library only).
// The Boost.JSON result layer is separate: rosterrig/result/result.hpp.
#ifndef ROSTERRIG_ROSTERRIG_HPP
#define ROSTERRIG_ROSTERRIG_HPP

#include "rosterrig/random/splitmix64.hpp"
#include "rosterrig/random/uniform_int.hpp"
#include "rosterrig/generate/npi.hpp"
#include "rosterrig/generate/partition.hpp"
#include "rosterrig/generate/timestamp.hpp"
#include "rosterrig/generate/roster_spec.hpp"
#include "rosterrig/generate/roster_event.hpp"
#include "rosterrig/generate/generator.hpp"
#include "rosterrig/generate/json_lines.hpp"
#include "rosterrig/check/missing_ranges.hpp"
#include "rosterrig/check/observed_row.hpp"
#include "rosterrig/check/expected_state.hpp"
#include "rosterrig/check/append_check.hpp"
#include "rosterrig/check/upsert_check.hpp"
#include "rosterrig/check/kill_attribution.hpp"
#include "rosterrig/stats/binomial_bounds.hpp"
#include "rosterrig/stats/summary.hpp"
#include "rosterrig/prediction/verdict.hpp"

#endif
