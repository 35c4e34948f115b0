// rosterrig-engine-check: holds Trino's own checks (drivers/live/roles/engine_checks.hpp)
// to the streaming ones on two tables damaged on purpose, on the running
// stack. It writes, through Trino, a feed's rows into an append table with
// one seq duplicated, one run of seqs missing and one seq out of range, and
// an upsert-shaped table (one row per NPI, its latest record) with one NPI
// missing, one on two rows and one holding an older record. Both checks run
// on each; it exits 0 only when they agree and both find exactly that damage.
// Everything it creates sits in a namespace of its own, dropped at the end,
// also when it fails. Prints a JSON summary on stdout.
#include <iostream>
#include <map>
#include <set>
#include <unistd.h>

#include <boost/json.hpp>

#include <rosterrig/check/check_agreement.hpp>
#include <rosterrig/check/expected_state.hpp>
#include <rosterrig/cli/arg_parser.hpp>
#include <rosterrig/generate/generator.hpp>

#include "roles/engine_checks.hpp"
#include "roles/observe_table.hpp"
#include "runner/progress.hpp"
#include "adapters/stack_config.hpp"

using namespace rosterrig;
using namespace rosterrig::live;
namespace json = boost::json;

namespace {

std::string quoted(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

std::string row_values(const roster_event& e, std::uint64_t seq) {
    const auto& f = e.fields;
    return "(" + std::to_string(seq) + "," + quoted(std::to_string(e.npi)) + "," + quoted(f.name) + "," +
           quoted(f.taxonomy) + "," + quoted(f.address) + "," + quoted(f.city) + "," + quoted(f.state) + "," +
           quoted(f.zip) + "," + quoted(f.phone) + "," + quoted(f.status) + ")";
}

// Creates iceberg.<ns>.<table> with the columns the checks read and writes the rows.
void write_table(const trino_client& trino, const std::string& ns, const std::string& table,
                 const std::vector<std::string>& rows) {
    const std::string name = "iceberg." + ns + "." + table;
    trino.query("CREATE TABLE " + name +
                " (seq BIGINT, npi VARCHAR, name VARCHAR, taxonomy VARCHAR, address VARCHAR, "
                "city VARCHAR, state VARCHAR, zip VARCHAR, phone VARCHAR, status VARCHAR)");
    for (std::size_t at = 0; at < rows.size(); at += 1000) {
        std::string values;
        for (std::size_t k = at; k < std::min(rows.size(), at + 1000); ++k) values += (k > at ? "," : "") + rows[k];
        trino.query("INSERT INTO " + name + " VALUES " + values, std::chrono::seconds(300));
    }
}

struct both_checks {
    experiment::table_observation streamed, engine;
    std::vector<std::string> disagreements;
};

both_checks check_both(const trino_client& trino, const std::string& ns, const std::string& table,
                       const roster_spec& spec) {
    both_checks b;
    experiment::table_observer o(spec);
    for_each_observed_row(trino, ns, table, [&](const observed_row& r) { o.observe(r); });
    b.streamed = o.finish({});
    const upsert_model model(trino, ns, table + "__rr_model", expect_upsert(spec));
    b.engine = engine_observe_table(trino, ns, table, spec, model);
    b.disagreements = append_disagreements(b.streamed.by_seq, b.engine.by_seq);
    // Buckets of 100 seqs put the missing run (around n/2, a multiple of 100 when n is) across a bucket edge.
    for (auto& d : append_disagreements(b.streamed.by_seq, engine_append_check(trino, ns, table, spec.events, 100)))
        b.disagreements.push_back("append, buckets of 100: " + d);
    for (auto& d : upsert_disagreements(b.streamed.by_npi, b.engine.by_npi)) b.disagreements.push_back("upsert: " + d);
    return b;
}

json::array texts(const std::vector<std::string>& v) {
    json::array a;
    for (const auto& s : v) a.emplace_back(s);
    return a;
}

}  // namespace

int main(int argc, char** argv) {
    roster_spec spec;
    spec.events = 3000, spec.seed = 11;
    std::string stack_file;
    cli::arg_parser args{
        "rosterrig-engine-check",
        "Checks that Trino's own append and upsert checks agree with the streaming ones on two tables damaged on purpose."};
    args.option("--events", spec.events, "N", "events of the feed written (default 3000; a multiple of 200)");
    args.option("--seed", spec.seed, "S", "the feed's seed (default 11)");
    args.option("--stack", stack_file, "FILE",
                "the stack to use, described in a file (docs/STACK.md; default: the local stack)");
    try {
        if (!args.parse(argc, argv)) return 0;
    } catch (const cli::usage_error& e) {
        std::cerr << "rosterrig-engine-check: " << e.what() << "\n" << args.usage();
        return 2;
    }
    if (spec.events < 200 || spec.events % 200 != 0) {  // room for a run of 21 seqs across a bucket edge at n/2
        std::cerr << "rosterrig-engine-check: --events: a multiple of 200, at least 200; got " << spec.events << "\n"
                  << args.usage();
        return 2;
    }
    spec.providers = std::max<std::uint64_t>(2, spec.events / 4);
    const auto stack = stack_config::load(stack_file);
    const trino_client trino(stack.trino());
    const std::string ns = "rr_engine_check_" + std::to_string(::getpid());
    bool created = false;
    int code = 1;
    try {
        trino.query("CREATE SCHEMA iceberg." + ns);
        created = true;
        const auto events = generate(spec);
        const std::uint64_t n = spec.events, doubled_seq = n / 3, gap_first = n / 2 - 10, gap_last = n / 2 + 10;
        // The append table: every event once, but seq doubled_seq twice, gap_first..gap_last absent, one row at seq n + 5.
        std::vector<std::string> rows;
        for (const auto& e : events) {
            if (e.seq >= gap_first && e.seq <= gap_last) continue;
            rows.push_back(row_values(e, e.seq));
            if (e.seq == doubled_seq) rows.push_back(row_values(e, e.seq));
        }
        rows.push_back(row_values(events.front(), n + 5));
        write_table(trino, ns, "append_damaged", rows);
        // The upsert image: one row per NPI, its last-arrived record; then one NPI dropped, one doubled, one older.
        const auto latest = expected_latest_by_arrival(spec);
        std::map<std::uint64_t, const roster_event*> older;  // an NPI with an earlier record -> that record
        for (const auto& e : events) older.try_emplace(e.npi, &e);
        std::uint64_t dropped = 0, doubled = 0, stale = 0;
        for (const auto& l : latest)
            if (older.at(l.npi)->seq != l.seq) stale = l.npi;
        if (stale == 0) throw std::runtime_error("the feed has no NPI with two records: give more --events");
        rows.clear();
        for (const auto& l : latest) {
            if (l.npi == stale) {
                rows.push_back(row_values(*older.at(l.npi), older.at(l.npi)->seq));
                continue;
            }
            if (dropped == 0) {
                dropped = l.npi;
                continue;
            }
            rows.push_back(row_values(l, l.seq));
            if (doubled == 0) doubled = l.npi, rows.push_back(row_values(l, l.seq));
        }
        write_table(trino, ns, "upsert_damaged", rows);
        progress("engine-check: wrote both damaged tables; checking each both ways");

        const auto a = check_both(trino, ns, "append_damaged", spec);
        const auto u = check_both(trino, ns, "upsert_damaged", spec);
        // What each must find: the damage written, nothing else.
        std::vector<std::string> misses;
        const auto want = [&](bool ok, const std::string& what) {
            if (!ok) misses.push_back(what);
        };
        for (const auto* side : {&a.engine, &a.streamed}) {
            const auto& s = side->by_seq;
            const std::string who = side == &a.engine ? "engine" : "streamed";
            want(s.duplicates == std::vector<seq_copies>{{doubled_seq, 2}},
                 who + " append: seq " + std::to_string(doubled_seq) + " on two rows");
            want(s.missing_runs == std::vector<seq_range>{{gap_first, gap_last}},
                 who + " append: missing run " + std::to_string(gap_first) + "-" + std::to_string(gap_last));
            want(s.out_of_range_rows == 1, who + " append: one row out of range");
        }
        for (const auto* side : {&u.engine, &u.streamed}) {
            const auto& s = side->by_npi;
            const std::string who = side == &u.engine ? "engine" : "streamed";
            want(s.missing_npis == std::vector<std::uint64_t>{dropped},
                 who + " upsert: NPI " + std::to_string(dropped) + " missing");
            want(s.shared_npis == std::vector<npi_copies>{{doubled, 2}},
                 who + " upsert: NPI " + std::to_string(doubled) + " on two rows");
            want(s.stale_rows == 1 && s.npis_without_latest == 1 && s.stale.size() == 1 && s.stale.front().npi == stale,
                 who + " upsert: NPI " + std::to_string(stale) + " holding an older record");
            want(s.unexpected_rows == 0, who + " upsert: no unexpected NPI");
        }
        json::object out{
            {"events", n},
            {"append_damaged", {{"rows", a.engine.by_seq.rows}, {"disagreements", texts(a.disagreements)}}},
            {"upsert_damaged", {{"rows", u.engine.by_npi.rows}, {"disagreements", texts(u.disagreements)}}},
            {"damage_not_found", texts(misses)}};
        std::cout << json::serialize(out) << "\n";
        code = a.disagreements.empty() && u.disagreements.empty() && misses.empty() ? 0 : 1;
        progress(std::string("engine-check: ") + (code == 0 ? "both checks agree and find exactly the damage written"
                                                            : "FAILED: see disagreements and damage_not_found"));
    } catch (const std::exception& e) {
        std::cerr << "rosterrig-engine-check: " << e.what() << "\n";
        code = 1;
    }
    if (created) {
        try {
            for (const auto* t : {"append_damaged", "upsert_damaged"})
                trino.query("DROP TABLE IF EXISTS iceberg." + ns + "." + t);
            trino.query("DROP SCHEMA iceberg." + ns);
        } catch (const std::exception& e) {
            std::cerr << "rosterrig-engine-check: clean-up: " << e.what() << "\n";
            code = 1;
        }
    }
    return code;
}
