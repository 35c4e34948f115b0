// rosterrig/experiment/table_check.hpp: how a run checks the tables it reads
// back (the --table-check flag), and which way each read takes.
#ifndef ROSTERRIG_EXPERIMENT_TABLE_CHECK_HPP
#define ROSTERRIG_EXPERIMENT_TABLE_CHECK_HPP

#include <utility>

#include <boost/describe/enum.hpp>

namespace rosterrig::experiment {

/// Streamed through the rig's checks as rows are read (the default), run by
/// Trino where the data is (only counts and anomalies cross the wire, for
/// tables too large to stream), or both, failing when the two disagree.
/// Spelled as the flag and the results' table_check spell it.
enum class table_check_way { streamed, engine, both };
BOOST_DESCRIBE_ENUM(table_check_way, streamed, engine, both)

/// A run's way of checking tables, and a cross-check armed for its first
/// read: a quick run holds the engine's checks to the streaming ones on its
/// first table without paying for both on every later read.
class table_check_setting {
public:
    table_check_setting() = default;
    table_check_setting(table_check_way way, bool cross_check_first_read)
        : way_(way), cross_check_armed_(cross_check_first_read) {}

    /// The way the next read checks its rows: both while the cross-check is
    /// armed (this read spends it), else the run's way.
    table_check_way next_read() { return std::exchange(cross_check_armed_, false) ? table_check_way::both : way_; }

    table_check_way way() const { return way_; }

private:
    table_check_way way_ = table_check_way::streamed;
    bool cross_check_armed_ = false;
};

}  // namespace rosterrig::experiment

#endif
