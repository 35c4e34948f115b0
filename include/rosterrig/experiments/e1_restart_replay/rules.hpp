// rosterrig/experiments/e1_restart_replay/rules.hpp: experiment 1's bound, lookups into the samples and the verdict rules, rules()
#ifndef ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E1_RESTART_REPLAY_RULES_HPP

#include "rosterrig/experiments/e1_restart_replay/samples.hpp"

namespace rosterrig::e1 {

/// The bound the predictions set: at most 0.10 per configuration.
inline constexpr double bound_target = experiment::kill_bound_target;

inline const configuration_run* find_configuration(const samples& s, const std::string& name) {
    for (const auto& c : s.configurations)
        if (c.name == name) return &c;
    return nullptr;
}

inline const offsets_step* find_step(const offsets_part& p, const std::string& step) {
    for (const auto& s : p.steps)
        if (s.step == step) return &s;
    return nullptr;
}

// ---- verdict rules ----------------------------------------------------------

inline constexpr double tight_bound_target = 0.030;

/// "No kill duplicated" where the table can show it: an append table keeps
/// every copy of a seq; an upsert table collapses a replayed row into the row
/// it repeats, so there a duplicate seq still refutes but none says nothing
/// (no bound), and the snapshots judge the replays (no_replay).
inline experiment::rule_verdict no_duplicates_seen(const configuration_run* run) {
    if (!run || run->table_kind != experiment::table_kind::upsert) return no_duplicates(run);
    experiment::facts f{{"duplicate_rows", run->duplicate_rows}};
    if (run->duplicate_rows > 0)
        return experiment::refuted(std::move(f), "{duplicate_rows} duplicate seq rows in an upsert table");
    return experiment::inconclusive(std::move(f),
                                    "no duplicate seq, but an upsert table collapses a replayed row into the row it "
                                    "repeats, so none could show; the snapshots judge it (e1.no-replay)");
}

/// The 0.030 bound for every configuration: on duplicate seqs for an append
/// table, on the snapshots (no_replay) for an upsert table.
inline experiment::rule_verdict tight_bound_everywhere(const samples& s) {
    return experiment::for_each_of(
        configurations(), [](const configuration& c) { return c.name; },
        [&](const configuration& c) {
            const auto* run = find_configuration(s, c.name);
            return c.table == experiment::table_kind::upsert ? no_replay(run, tight_bound_target)
                                                             : no_duplicates(run, tight_bound_target);
        },
        "no configurations are defined");
}

/// Where both can see, the snapshots agree with the rows: on an append
/// table, the records the job's snapshots added beyond the events sent are
/// its duplicate seq rows less its missing seqs. The check that makes the
/// snapshots' count trustworthy where the rows cannot be read (upsert).
inline experiment::rule_verdict snapshots_agree_with_rows(const samples& s) {
    using namespace experiment;
    std::vector<const configuration_run*> runs;
    for (const auto& c : s.configurations)
        if (c.table_kind == table_kind::append) runs.push_back(&c);
    if (runs.empty()) return inconclusive({}, "no append configuration ran");
    return for_each_of(
        runs, [](const configuration_run* c) { return c->name; },
        [](const configuration_run* c) -> rule_verdict {
            const auto r = replays_of(*c);
            if (!r) return inconclusive({}, "the run did not record its snapshots");
            std::int64_t missing = 0;
            for (const auto& m : c->missing_runs) missing += static_cast<std::int64_t>(m.size());
            const std::int64_t seen = static_cast<std::int64_t>(c->duplicate_rows) - missing;
            return held_if(r->report.excess_records() == seen,
                           {{"excess_records", r->report.excess_records()},
                            {"duplicate_rows", c->duplicate_rows},
                            {"missing_seqs", missing}},
                           "snapshots: {excess_records} records beyond the events sent; rows: {duplicate_rows} "
                           "duplicate seq rows, {missing_seqs} seqs missing");
        },
        "no append configuration ran");
}

inline experiment::rule_verdict upsert_holds_latest(const samples& s) {
    using namespace experiment;
    bool any = false;
    facts wrong;  // per upsert configuration whose table is not the latest
    std::string why;
    for (const auto& c : s.configurations) {
        if (c.table_kind != table_kind::upsert) continue;
        any = true;
        if (c.stale_rows || c.rows_sharing_npi || c.missing_npis || c.unexpected_rows) {
            facts one{{"stale_rows", c.stale_rows},
                      {"rows_sharing_npi", c.rows_sharing_npi},
                      {"missing_npis", c.missing_npis},
                      {"unexpected_rows", c.unexpected_rows}};
            why +=
                c.name + ": " + render(one, "{stale_rows} stale, {rows_sharing_npi} sharing, {missing_npis} missing; ");
            wrong[c.name] = std::move(one);
        }
    }
    if (!any) return inconclusive({}, "no upsert configuration ran");
    if (wrong.empty()) return held({}, "every NPI row is the expected latest");
    return from_parts(verdict_kind::refuted, std::move(wrong), why);
}

inline experiment::rule_verdict recovery_ignores_offsets(const samples& s) {
    using namespace experiment;
    auto* rewound = find_step(s.offsets, "rewound");
    auto* restored = find_step(s.offsets, "restored_from_checkpoint");
    if (!rewound || !restored) return inconclusive({}, "part 2 did not run");
    if (rewound->committed_offsets_sum != 0)
        return inconclusive({{"rewound_offsets_sum", rewound->committed_offsets_sum}},
                            "the rewind did not take: committed offsets summed to {rewound_offsets_sum}");
    const bool ok = restored->duplicate_rows == 0 && restored->committed_offsets_sum == restored->end_offsets_sum;
    return held_if(ok,
                   {{"duplicate_rows", restored->duplicate_rows},
                    {"committed_offsets_sum", restored->committed_offsets_sum},
                    {"end_offsets_sum", restored->end_offsets_sum}},
                   "{duplicate_rows} duplicates after the restore; offsets {committed_offsets_sum} of "
                   "{end_offsets_sum}");
}

inline experiment::rule_verdict fresh_job_replays_log(const samples& s) {
    using namespace experiment;
    auto* fresh = find_step(s.offsets, "fresh_from_group_offsets");
    if (!fresh) return inconclusive({}, "part 2 did not run");
    return held_if(fresh->duplicate_rows == s.offsets.events,
                   {{"duplicate_rows", fresh->duplicate_rows}, {"events", s.offsets.events}},
                   "{duplicate_rows} duplicates for {events} events");
}

/// A user's job (--job) under the kills: its table ends as the feed says —
/// append: no seq twice and none missing; upsert: each NPI once, holding its
/// latest record (a replay there collapses, so the table's end state is what
/// can be seen) — and enough kills to bound the chance a kill breaks it.
inline experiment::rule_verdict your_job_lands_exactly_once(const samples& s) {
    using namespace experiment;
    std::vector<const configuration_run*> jobs;
    for (const auto& c : s.configurations)
        if (c.name.rfind("your job", 0) == 0) jobs.push_back(&c);
    if (jobs.empty())
        return inconclusive({}, "this run ran the rig's own configurations; only a --job run has your job to judge");
    return for_each_of(
        jobs, [](const configuration_run* c) { return c->name; },
        [](const configuration_run* c) -> rule_verdict {
            if (c->table_kind == table_kind::append) {
                if (!c->missing_runs.empty())
                    return refuted({{"missing_runs", c->missing_runs.size()}, {"duplicate_rows", c->duplicate_rows}},
                                   "{missing_runs} runs of seqs missing, {duplicate_rows} duplicate rows");
                return no_duplicates(c);
            }
            const auto wrong = c->stale_rows + c->rows_sharing_npi + c->missing_npis + c->unexpected_rows;
            facts f{{"stale_rows", c->stale_rows},
                    {"rows_sharing_npi", c->rows_sharing_npi},
                    {"missing_npis", c->missing_npis},
                    {"unexpected_rows", c->unexpected_rows},
                    {"kills", c->kills.size()}};
            const std::string state =
                "{stale_rows} stale, {rows_sharing_npi} sharing an NPI, {missing_npis} NPIs missing, "
                "{unexpected_rows} unexpected rows after {kills} kills";
            if (wrong > 0) return refuted(std::move(f), state);
            if (c->kills.empty()) return inconclusive(std::move(f), state + ": no kill to judge");
            const double bound = stats::clopper_pearson_upper(0, c->kills.size());
            f["bound"] = bound;
            const std::string why = state + "; 95% upper bound on a kill breaking the table {bound}";
            return bound <= kill_bound_target ? held(std::move(f), why)
                                              : inconclusive(std::move(f), why + ": too few kills to say");
        },
        "no job ran");
}

using rule = experiment::rule<samples, parameters>;

/// One rule per prediction id, exactly.
inline std::vector<rule> rules() {
    std::vector<rule> out;
    for (const auto& c : configurations())
        out.push_back({"e1.no-duplicates:" + c.name, [name = c.name](const samples& s, const parameters&) {
                           return no_duplicates_seen(find_configuration(s, name));
                       }});
    for (const auto& c : configurations())
        if (c.table == experiment::table_kind::upsert)
            out.push_back({"e1.no-replay:" + c.name, [name = c.name](const samples& s, const parameters&) {
                               return no_replay(find_configuration(s, name));
                           }});
    out.push_back({"e1.snapshots-agree-with-rows",
                   [](const samples& s, const parameters&) { return snapshots_agree_with_rows(s); }});
    out.push_back({"e1.tight-bound", [](const samples& s, const parameters&) { return tight_bound_everywhere(s); }});
    out.push_back(
        {"e1.upsert-holds-latest", [](const samples& s, const parameters&) { return upsert_holds_latest(s); }});
    out.push_back({"e1.recovery-ignores-offsets",
                   [](const samples& s, const parameters&) { return recovery_ignores_offsets(s); }});
    out.push_back(
        {"e1.fresh-job-replays-log", [](const samples& s, const parameters&) { return fresh_job_replays_log(s); }});
    out.push_back({"e1.your-job-lands-exactly-once",
                   [](const samples& s, const parameters&) { return your_job_lands_exactly_once(s); }});
    return out;
}

}  // namespace rosterrig::e1

#endif
