#include "jobs/table_maintenance.hpp"

#include "roles/observe_table.hpp"
#include "adapters/process_fault.hpp"
#include "adapters/table_store.hpp"

namespace rosterrig::live {
namespace {

struct table_state {
    std::int64_t snapshots = 0, watermark = -1;
    std::string writer, operation;
    bool has_job_watermark = false;
    experiment::table_files files;
};

table_state state_of(session& s, const pipeline_spec& p, const std::string& job) {
    const auto t = s.catalog.load(p.ns, p.table);
    table_state out;
    out.snapshots = static_cast<std::int64_t>(t.snapshots.size());
    if (const auto cur = t.current()) {
        out.watermark = cur->flink_watermark();
        out.writer = cur->summary_text("flink.job-id");
        out.operation = cur->summary_text("operation");
    }
    for (const auto& snap : t.snapshots)
        if (snap.summary_text("flink.job-id") == job && snap.flink_watermark() >= 0) out.has_job_watermark = true;
    try {
        out.files = read_table_files(s.trino, p.ns, p.table);
    } catch (const live_error&) {
        out.files.data_files = out.files.equality_delete_files = -1;  // recorded as unknown
    }
    return out;
}

}  // namespace

e4::procedure_call run_procedure(session& s, const pipeline_spec& p, const std::string& job, const std::string& execute,
                                 long long t0_ms) {
    e4::procedure_call c;
    c.procedure = execute.substr(0, execute.find('('));
    const auto before = state_of(s, p, job);
    c.snapshots_before = before.snapshots, c.watermark_before = before.watermark,
    c.current_writer_before = before.writer;
    c.data_files_before = before.files.data_files;
    c.delete_files_before =
        before.files.data_files < 0 ? -1 : before.files.equality_delete_files + before.files.position_delete_files;
    const long long start = now_ms();
    c.at_ms = start - t0_ms;
    try {
        s.trino.query("ALTER TABLE iceberg." + p.ns + "." + p.table + " EXECUTE " + execute, std::chrono::seconds(300));
        c.ok = true;
    } catch (const live_error& e) {
        c.error = e.what();
    }
    c.took_ms = now_ms() - start;
    const auto after = state_of(s, p, job);
    c.snapshots_after = after.snapshots, c.watermark_after = after.watermark, c.current_writer_after = after.writer;
    c.current_operation_after = after.operation, c.after_has_job_watermark = after.has_job_watermark;
    c.data_files_after = after.files.data_files;
    c.delete_files_after =
        after.files.data_files < 0 ? -1 : after.files.equality_delete_files + after.files.position_delete_files;
    return c;
}

e4::trino_settings trino_min_retentions(const trino_client& trino) {
    e4::trino_settings out;
    for (const auto& row : trino.query("SHOW SESSION LIKE 'iceberg.%_min_retention'").rows) {
        const std::string name(row.at(0).as_string()), value(row.at(1).as_string());
        if (name == "iceberg.expire_snapshots_min_retention") out.expire_snapshots_min_retention = value;
        if (name == "iceberg.remove_orphan_files_min_retention") out.remove_orphan_files_min_retention = value;
    }
    return out;
}

e4::job_health job_health_of(session& s, const std::string& job) {
    e4::job_health h;
    h.state = s.flink.job_state(job);
    h.restarts = s.flink.restarts(job);
    const auto ex = s.flink.exceptions(job);
    h.exceptions = static_cast<std::int64_t>(ex.size());
    for (const auto& e : ex)
        if (h.exception_names.size() < 3) h.exception_names.push_back(e.first_line.substr(0, 300));
    const auto cp = s.flink.checkpoints(job);
    h.completed_checkpoints = cp.completed, h.failed_checkpoints = cp.failed;
    return h;
}

e4::table_check check_table(session& s, const pipeline_spec& p, const roster_spec& spec, const std::string& kind) {
    e4::table_check t;
    t.kind = kind, t.events = spec.events;
    try {
        e4::record_rows(t, observe_table(s.trino, s.table_checks, p.ns, p.table, spec));
    } catch (const live_error& e) {
        t.scan_ok = false, t.scan_error = e.what();
    }
    const auto m = referenced_but_missing(s, p.ns, p.table, s.catalog.load(p.ns, p.table).location);
    t.referenced_data_files = m.referenced, t.referenced_missing = m.missing,
    t.records_in_missing_files = m.records_in_missing;
    return t;
}

}  // namespace rosterrig::live
