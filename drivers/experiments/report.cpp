// rosterrig-report: every table and figure in the README comes from here, read
// out of results/*.json by the same pure analysis the drivers used. It rewrites
// the README between <!-- BEGIN name --> and <!-- END name --> markers and
// draws docs/e2_timeline.svg. `--check` exits 1 when the README differs from
// what the results say (CI runs it), so a hand-edited number cannot survive.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <rosterrig/result/json_file.hpp>

#include <rosterrig/experiments/e1_restart_replay.hpp>
#include <rosterrig/experiments/e2_savepoint_restore.hpp>

using namespace rosterrig;
namespace fs = std::filesystem;

namespace {

std::string fmt_int(long long v) {
    std::string s = std::to_string(v < 0 ? -v : v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return v < 0 ? "-" + s : s;
}

std::string fmt(double v, int digits) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(digits) << v;
    return o.str();
}

std::string provenance(const result::result_envelope& env) {
    std::string versions;
    for (const auto& [k, v] : env.component_versions) versions += (versions.empty() ? "" : ", ") + k + " " + v;
    return "Run " + env.started_at + " to " + env.finished_at + ", code " + env.code_commit.substr(0, 12) +
           ", predictions committed in " + env.prediction.recorded_in_commit.substr(0, 12) +
           ". Versions as the components reported them: " + versions + ".\n";
}

std::string verdict_table(const auto& predictions) {
    std::string out = "| Prediction | Verdict | Why |\n|---|---|---|\n";
    for (const auto& p : predictions)
        out += "| `" + p.id + "` | " + std::string(to_string(p.verdict)) + " | " + p.reason + " |\n";
    return out;
}

std::string e1_section(const result::result_envelope& env, const e1::samples& s) {
    std::ostringstream o;
    auto params = result::parameters_as<e1::parameters>(env);
    o << "Each configuration: one job fed " << fmt_int(static_cast<long long>(params.events))
      << " roster events at a steady rate, the TaskManager SIGKILLed " << params.kills_per_configuration
      << " times at randomized moments (0 to " << params.kill_delay_max_ms
      << " ms after the first checkpoint of each recovery), checkpoint interval " << params.checkpoint_interval_ms
      << " ms, " << experiment::name_of(params.warehouse) << " warehouse" << (params.quick ? ", **quick run**" : "") << ".\n\n";
    o << "| Configuration | Mode in force (Flink) | Writer input | Kills | Kills with duplicates | Duplicates (min / median / max per kill) | 95% upper bound | Rows | Duplicate seq rows | Rows sharing an NPI | Stale upsert rows | Data files | Equality delete files | Failures in Flink's exception history |\n";
    o << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& c : s.configurations) {
        auto sum = e1::summarize(c);
        o << "| " << c.name << " | " << c.checkpoint_mode_in_force << ", " << c.checkpoint_interval_in_force_ms
          << " ms | " << c.writer_input << " | " << sum.kills << " | " << sum.kills_with_duplicates << " | "
          << fmt_int(static_cast<long long>(sum.total_duplicates)) << " (" << fmt(sum.min_per_kill, 0) << " / "
          << fmt(sum.median_per_kill, 1) << " / " << fmt(sum.max_per_kill, 0) << ") | " << fmt(sum.upper_bound_95, 4)
          << " | " << fmt_int(static_cast<long long>(c.rows)) << " | " << fmt_int(static_cast<long long>(c.duplicate_rows))
          << " | " << fmt_int(static_cast<long long>(c.rows_sharing_npi)) << " | "
          << (c.table_kind == experiment::table_kind::upsert ? fmt_int(static_cast<long long>(c.stale_rows)) : std::string("n/a")) << " | "
          << c.data_files << " | " << c.equality_delete_files << " | " << c.exceptions_recorded << " |\n";
    }
    o << "\nSink: " << (s.configurations.empty() ? std::string("-") : s.configurations.front().sink)
      << ". Rows sharing an NPI are expected in append tables (a provider is asserted about six times); "
         "in upsert tables they would be a failure.\n\n";
    o << "Committed offsets are monitoring (" << fmt_int(static_cast<long long>(s.offsets.events)) << " events):\n\n";
    o << "| Step | Committed offsets, summed | End offsets, summed | Rows (Trino) | Duplicate rows |\n|---|---|---|---|---|\n";
    for (const auto& st : s.offsets.steps)
        o << "| " << st.step << " | " << fmt_int(st.committed_offsets_sum) << " | " << fmt_int(st.end_offsets_sum)
          << " | " << fmt_int(static_cast<long long>(st.rows)) << " | " << fmt_int(static_cast<long long>(st.duplicate_rows))
          << " |\n";
    if (!s.offsets.after_restore.empty()) {
        const auto& first = s.offsets.after_restore.front();
        const auto& last = s.offsets.after_restore.back();
        o << "\nAfter the restore, the committed offsets were watched every 0.5 s: they read "
          << fmt_int(first.committed_offsets_sum) << " at " << fmt(first.ms_after_recovery / 1000.0, 1) << " s and "
          << fmt_int(last.committed_offsets_sum) << " at " << fmt(last.ms_after_recovery / 1000.0, 1)
          << " s, while the job completed checkpoints " << first.newest_checkpoint_id << " to "
          << last.newest_checkpoint_id << ".\n";
    }
    o << "\n" << verdict_table(s.predictions) << "\n" << provenance(env);
    return o.str();
}

std::string e2_section(const result::result_envelope& env, const e2::samples& s) {
    std::ostringstream o;
    auto params = result::parameters_as<e2::parameters>(env);
    o << "Per repeat: a first batch of " << fmt_int(static_cast<long long>(params.first_batch_events))
      << " events, a savepoint early, the job run on until the table's watermark was " << params.watermark_lead
      << " checkpoints past it, stopped; a second batch of " << fmt_int(static_cast<long long>(params.second_batch_events))
      << " events; a new job restored from the old savepoint. Sampled every " << params.sample_period_ms
      << " ms from the restore request (Trino row counts every " << params.row_count_period_ms << " ms)"
      << (params.quick ? ", **quick run**" : "") << ".\n\n";
    o << "| Variant | Repeat | Savepoint checkpoint | Table watermark | Freeze (last old sample, first new) | First new snapshot's checkpoint id | Commit burst: snapshots, final checkpoint, records, span | Lag 0 while stale | Job states while stale | Failed checkpoints during freeze | Rows | Duplicate rows | Missing runs |\n";
    o << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    std::map<std::string, std::vector<double>> freezes;
    for (const auto& r : s.runs) {
        auto a = e2::analyze(r);
        std::string states;
        for (const auto& st : a.states_while_stale) states += (states.empty() ? "" : ", ") + st;
        long long failed = (a.failed_checkpoints_at_table_move >= 0 && a.failed_checkpoints_at_first_running >= 0)
                               ? a.failed_checkpoints_at_table_move - a.failed_checkpoints_at_first_running
                               : -1;
        o << "| " << r.variant << " | " << r.repeat << " | " << r.savepoint_checkpoint_id << " | " << r.watermark_before
          << " | " << fmt(a.last_old_ms / 1000.0, 1) << " s, " << fmt(a.first_new_ms / 1000.0, 1) << " s | "
          << a.ended_by_checkpoint << " | " << a.burst_snapshots << ", " << a.burst_final_checkpoint << ", "
          << fmt_int(a.burst_records) << ", " << fmt(a.burst_span_ms / 1000.0, 1) << " s | " << (a.lag_zero_while_stale ? "yes" : "no")
          << " | " << states << " | " << failed << " | " << fmt_int(static_cast<long long>(r.rows)) << " | "
          << fmt_int(static_cast<long long>(r.duplicate_rows)) << " | " << r.missing_runs.size() << " |\n";
        if (a.table_moved) freezes[r.variant].push_back(a.first_new_ms / 1000.0);
    }
    o << "\n| Variant | Freeze end after the restore request, min / median / max |\n|---|---|\n";
    for (const auto& [v, xs] : freezes) {
        auto sum = stats::summarize(xs);
        o << "| " << v << " | " << fmt(sum.min, 1) << " / " << fmt(sum.median, 1) << " / " << fmt(sum.max, 1)
          << " s (n = " << sum.count << ") |\n";
    }
    o << "\nThe freeze is bounded by two samples half a second apart: the table changed after the first figure and "
         "no later than the second.\n\n![rows visible and checkpoint id against time since the restore](docs/e2_timeline.svg)\n\n";
    o << verdict_table(s.predictions) << "\n" << provenance(env);
    return o.str();
}

// One SVG: for the first repeat of each variant, records in the table's current
// snapshot (solid) and the restored job's newest checkpoint id (dashed, right
// axis) against seconds since the restore request.
std::string e2_svg(const e2::samples& s) {
    const double w = 760, h = 380, left = 60, right = 60, top = 30, bottom = 50;
    double tmax = 1, rmax = 1, cmax = 1;
    std::vector<const e2::restore_run*> runs;
    for (const auto& r : s.runs)
        if (r.repeat == 1) runs.push_back(&r);
    for (auto* r : runs)
        for (const auto& x : r->samples) {
            tmax = std::max(tmax, x.t_ms / 1000.0);
            rmax = std::max(rmax, static_cast<double>(x.total_records));
            cmax = std::max(cmax, static_cast<double>(x.newest_checkpoint_id));
        }
    auto X = [&](double t) { return left + (w - left - right) * t / tmax; };
    auto Y = [&](double v, double vmax) { return h - bottom - (h - top - bottom) * v / vmax; };
    const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd"};
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w << "\" height=\"" << h
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    o << "<line x1=\"" << left << "\" y1=\"" << h - bottom << "\" x2=\"" << w - right << "\" y2=\"" << h - bottom
      << "\" stroke=\"black\"/>\n<line x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left << "\" y2=\""
      << h - bottom << "\" stroke=\"black\"/>\n<line x1=\"" << w - right << "\" y1=\"" << top << "\" x2=\"" << w - right
      << "\" y2=\"" << h - bottom << "\" stroke=\"black\"/>\n";
    for (int i = 0; i <= 5; ++i) {
        double t = tmax * i / 5, r = rmax * i / 5, c = cmax * i / 5;
        o << "<text x=\"" << X(t) << "\" y=\"" << h - bottom + 15 << "\" text-anchor=\"middle\">" << fmt(t, 0) << "</text>\n";
        o << "<text x=\"" << left - 5 << "\" y=\"" << Y(r, rmax) + 4 << "\" text-anchor=\"end\">" << fmt(r, 0) << "</text>\n";
        o << "<text x=\"" << w - right + 5 << "\" y=\"" << Y(c, cmax) + 4 << "\">" << fmt(c, 0) << "</text>\n";
    }
    o << "<text x=\"" << (w / 2) << "\" y=\"" << h - 12 << "\" text-anchor=\"middle\">seconds since the restore request</text>\n";
    o << "<text x=\"12\" y=\"" << top - 10 << "\">records in the table (solid)</text>\n";
    o << "<text x=\"" << w - 12 << "\" y=\"" << top - 10 << "\" text-anchor=\"end\">job's newest checkpoint id (dashed)</text>\n";
    int i = 0;
    for (auto* r : runs) {
        const char* color = colors[i % 4];
        std::string rows_path, ckpt_path;
        for (const auto& x : r->samples) {
            double t = x.t_ms / 1000.0;
            rows_path += (rows_path.empty() ? "M" : " L") + fmt(X(t), 1) + "," + fmt(Y(static_cast<double>(x.total_records), rmax), 1);
            if (x.newest_checkpoint_id >= 0)
                ckpt_path += (ckpt_path.empty() ? "M" : " L") + fmt(X(t), 1) + "," +
                             fmt(Y(static_cast<double>(x.newest_checkpoint_id), cmax), 1);
        }
        o << "<path d=\"" << rows_path << "\" fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\"/>\n";
        if (!ckpt_path.empty())
            o << "<path d=\"" << ckpt_path << "\" fill=\"none\" stroke=\"" << color << "\" stroke-dasharray=\"4,3\"/>\n";
        o << "<text x=\"" << left + 10 << "\" y=\"" << top + 15 + 14 * i << "\" fill=\"" << color << "\">" << r->variant
          << " (watermark " << r->watermark_before << ")</text>\n";
        ++i;
    }
    o << "</svg>\n";
    return o.str();
}

std::string read_file(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Replaces the text between the markers; returns false when a marker is missing.
bool splice(std::string& doc, const std::string& name, const std::string& body) {
    const std::string begin = "<!-- BEGIN " + name + " -->", end = "<!-- END " + name + " -->";
    auto b = doc.find(begin), e = doc.find(end);
    if (b == std::string::npos || e == std::string::npos || e < b) return false;
    doc.replace(b + begin.size(), e - b - begin.size(), "\n" + body);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    std::string root = ".";
    bool check = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--check") check = true;
        else if (a == "--root" && i + 1 < argc) root = argv[++i];
        else if (a == "--help" || a == "-h") {
            std::cout << "usage: rosterrig-report [--root DIR] [--check]\n"
                         "  Regenerates the README's result sections and docs/e2_timeline.svg from results/*.json;\n"
                         "  --check exits 1 if they differ from what is on disk.\n";
            return 0;
        } else {
            std::cerr << "rosterrig-report: unknown flag " << a << "\n";
            return 2;
        }
    }
    const fs::path readme = fs::path(root) / "README.md";
    std::string doc = read_file(readme), updated = doc;
    std::map<fs::path, std::string> files;
    try {
        const fs::path e1_file = fs::path(root) / "results/e1_restart_replay.json";
        if (fs::exists(e1_file)) {
            auto env = result::read_result(e1_file.string());
            auto s = result::samples_as<e1::samples>(env, e1_file.string());
            if (!splice(updated, "e1", e1_section(env, s))) std::cerr << "rosterrig-report: README has no e1 markers\n";
        }
        const fs::path e2_file = fs::path(root) / "results/e2_savepoint_restore.json";
        if (fs::exists(e2_file)) {
            auto env = result::read_result(e2_file.string());
            auto s = result::samples_as<e2::samples>(env, e2_file.string());
            if (!splice(updated, "e2", e2_section(env, s))) std::cerr << "rosterrig-report: README has no e2 markers\n";
            files[fs::path(root) / "docs/e2_timeline.svg"] = e2_svg(s);
        }
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-report: " << e.what() << "\n";
        return 2;
    }
    files[readme] = updated;
    if (check) {
        int rc = 0;
        for (const auto& [p, text] : files)
            if (read_file(p) != text) {
                std::cerr << "rosterrig-report: " << p.string() << " differs from what the results say; run rosterrig-report\n";
                rc = 1;
            }
        return rc;
    }
    for (const auto& [p, text] : files) {
        const auto tmp = p.string() + ".tmp";
        std::ofstream(tmp) << text;
        fs::rename(tmp, p);
    }
    return 0;
}
