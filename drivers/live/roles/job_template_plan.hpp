// A user's job template (--job FILE): read and checked offline, then planned
// through the SQL Gateway before anything is created, so a template the
// checks cannot read is refused (exit 2) naming what it lacks.
#ifndef ROSTERRIG_LIVE_JOB_TEMPLATE_PLAN_HPP
#define ROSTERRIG_LIVE_JOB_TEMPLATE_PLAN_HPP
#include <stdexcept>
#include <string>

#include <rosterrig/experiment/bad_input.hpp>
#include <rosterrig/experiment/job_template.hpp>

#include "roles/pipeline.hpp"
#include "adapters/stack_config.hpp"

namespace rosterrig::live {

// A template that cannot run as the writer under test: bad input, exit 2.
class template_refused : public experiment::bad_input {
public:
    explicit template_refused(const std::string& what) : bad_input(what) {}
};

// Reads FILE; throws template_refused when it cannot be read or its text
// alone keeps it from running (unknown placeholders, not one INSERT ...).
experiment::job_template read_job_template(const std::string& file);

// Plans the template in a session of its own: the sink table is created in a
// throw-away Iceberg catalog (a Hadoop catalog in a fresh folder of the
// gateway's machine, dropped after), described, and the INSERT explained.
// Nothing reaches the stack's catalog, object store, Kafka or JobManager.
// Throws template_refused when Flink refuses the template or the sink table
// lacks what the checks need (experiment::sink_table_problems).
experiment::template_plan plan_job_template(const stack_config& stack, const experiment::job_template& t,
                                            const experiment::pipeline_config& config);

// Reads and plans FILE: what `--job FILE` runs and `rosterrig doctor --job FILE` checks.
experiment::job_template planned_job_template(const stack_config& stack, const std::string& file,
                                              const experiment::pipeline_config& config);

}  // namespace rosterrig::live

#endif
