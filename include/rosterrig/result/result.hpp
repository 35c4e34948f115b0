// rosterrig/result/result.hpp: the Boost.JSON layer (target rosterrig::results).
#ifndef ROSTERRIG_RESULT_RESULT_HPP
#define ROSTERRIG_RESULT_RESULT_HPP

#include "rosterrig/result/strict_reader.hpp"
#include "rosterrig/result/json_file.hpp"
#include "rosterrig/result/envelope.hpp"
#include "rosterrig/result/prediction_file.hpp"
#include "rosterrig/result/run_status.hpp"
#include "rosterrig/result/check_json.hpp"

#endif
