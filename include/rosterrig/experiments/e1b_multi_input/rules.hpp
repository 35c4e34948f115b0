// rosterrig/experiments/e1b_multi_input/rules.hpp: experiment 1b's analysis (attribution by checkpoint, alignment, rates) and verdict rules, rules()
#ifndef ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_RULES_HPP
#define ROSTERRIG_EXPERIMENTS_E1B_MULTI_INPUT_RULES_HPP

#include "rosterrig/experiments/e1b_multi_input/samples.hpp"

namespace rosterrig::e1b {

// ---- analysis ---------------------------------------------------------------

/// Each kill's duplicates, from the checkpoints that committed the copies.
/// Experiment 1 attributes by how far the feed had been sent, which works
/// while the feed is paced; here the whole feed is in Kafka after a few
/// seconds, so the position sent says nothing. A replayed copy is instead
/// committed by a checkpoint after the restore that replayed it: a seq's
/// first copy (lowest checkpoint) is the original, and each later copy goes
/// to the last kill whose restored checkpoint is below the copy's. A copy no
/// kill precedes, or whose checkpoint is unknown, is unattributed.
inline void attribute_by_checkpoint(configuration_run& c) {
    auto copies = c.duplicate_copies;
    std::sort(copies.begin(), copies.end(), [](const auto& a, const auto& b) {
        return a.seq != b.seq ? a.seq < b.seq : a.checkpoint_id < b.checkpoint_id;
    });
    for (auto& k : c.run.kills) k.duplicates = 0;
    c.run.unattributed_duplicates = 0;
    for (std::size_t i = 0; i < copies.size(); ++i) {
        if (i == 0 || copies[i].seq != copies[i - 1].seq) continue;  // the original
        const auto cp = copies[i].checkpoint_id;
        experiment::kill_sample* by = nullptr;
        for (auto& k : c.run.kills)
            if (cp >= 0 && k.restored_checkpoint_id >= 0 && k.restored_checkpoint_id < cp &&
                (!by || k.restored_checkpoint_id >= by->restored_checkpoint_id))
                by = &k;
        if (by)
            ++by->duplicates;
        else
            ++c.run.unattributed_duplicates;
    }
}

/// A sample's median, or 0 when there is none.
inline double median_of(std::vector<double> v) { return v.empty() ? 0.0 : stats::summarize(std::move(v)).median; }
inline double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }

/// The writer's barrier alignment over the checkpoints the run recorded.
struct alignment_summary {
    std::size_t checkpoints = 0;
    double alignment_median_ms = 0, alignment_max_ms = 0;
    double start_delay_median_ms = 0, start_delay_max_ms = 0;
    double processed_median_bytes = 0, processed_max_bytes = 0;
    double persisted_median_bytes = 0, persisted_max_bytes = 0;
    double end_to_end_median_ms = 0, end_to_end_max_ms = 0;
    std::size_t unaligned_checkpoints = 0;
};

inline alignment_summary summarize_alignment(const configuration_run& c) {
    alignment_summary a;
    std::vector<double> align, delay, processed, persisted, e2e;
    for (const auto& k : c.checkpoints) {
        if (k.writer_subtasks == 0) continue;  // the writer's figures were not served for it
        ++a.checkpoints;
        align.push_back(static_cast<double>(k.writer_alignment_max_ms));
        delay.push_back(static_cast<double>(k.writer_start_delay_max_ms));
        processed.push_back(static_cast<double>(k.writer_processed_bytes));
        persisted.push_back(static_cast<double>(k.writer_persisted_bytes));
        e2e.push_back(static_cast<double>(k.end_to_end_ms));
        if (k.writer_unaligned) ++a.unaligned_checkpoints;
    }
    a.alignment_median_ms = median_of(align), a.alignment_max_ms = max_of(align);
    a.start_delay_median_ms = median_of(delay), a.start_delay_max_ms = max_of(delay);
    a.processed_median_bytes = median_of(processed), a.processed_max_bytes = max_of(processed);
    a.persisted_median_bytes = median_of(persisted), a.persisted_max_bytes = max_of(persisted);
    a.end_to_end_median_ms = median_of(e2e), a.end_to_end_max_ms = max_of(e2e);
    return a;
}

/// Events per second from the feed's start to its last delivery report.
inline double produce_rate(const configuration_run& c) {
    return c.produce_ms > 0 ? static_cast<double>(c.run.acknowledged) * 1000.0 / static_cast<double>(c.produce_ms)
                            : 0.0;
}
/// Rows per second read back through Trino and checked.
inline double readback_rate(const configuration_run& c) {
    return c.readback_ms > 0 ? static_cast<double>(c.run.rows) * 1000.0 / static_cast<double>(c.readback_ms) : 0.0;
}

// ---- verdict rules ----------------------------------------------------------

/// The fewest kills that can refute "at-least-once duplicates after some
/// kills": if a kill duplicated with probability 0.1 or more, 30 clean kills
/// would happen less than 5% of the time.
inline constexpr std::uint64_t kills_to_refute = 30;

/// A configuration's run can answer only if its writer had several inputs.
inline std::optional<experiment::rule_verdict> cannot_answer(const configuration_run* c) {
    if (!c) return experiment::inconclusive({}, "the configuration did not run");
    if (auto why = fan_in_problem(c->fan_in))
        return experiment::inconclusive({{"fan_in_problem", *why}}, "{fan_in_problem}");
    return std::nullopt;
}

/// The fewest kills that can refute "a saturated at-least-once writer
/// duplicates": it gets as many kills as the backlog lasts.
inline constexpr std::uint64_t saturated_kills_to_refute = 5;

/// "At-least-once with a multi-input writer duplicates after some kills":
/// held by any duplicating kill, refuted by `enough` clean kills (on a run
/// that did not complete, only once it has: held_by_any_trial).
inline experiment::rule_verdict at_least_once_duplicates(const samples& s, const std::string& name,
                                                         std::uint64_t enough) {
    using namespace experiment;
    const auto* c = find_configuration(s, name);
    if (auto no = cannot_answer(c)) return *no;
    const auto sum = experiment::summarize(c->run);
    facts f{{"kills_with_duplicates", sum.kills_with_duplicates},
            {"kills", sum.kills},
            {"duplicate_rows", c->run.duplicate_rows},
            {"kills_to_refute", enough}};
    const std::string what = "{kills_with_duplicates} of {kills} kills duplicated ({duplicate_rows} duplicate rows)";
    if (sum.kills_with_duplicates > 0) return held_by_any_trial(held(std::move(f), what));
    if (sum.kills >= enough) return held_by_any_trial(refuted(std::move(f), what));
    return inconclusive(std::move(f), what + "; at least {kills_to_refute} clean kills are needed to refute");
}

/// "Exactly-once never duplicates here; the 95% bound is at most 0.10."
inline experiment::rule_verdict exactly_once_clean(const samples& s, const std::string& name) {
    const auto* c = find_configuration(s, name);
    if (auto no = cannot_answer(c)) return *no;
    return experiment::no_duplicates(&c->run);
}

/// "Saturated exactly-once leaves no duplicate row": exact, no bound (the
/// configuration gets as many kills as the backlog lasts).
inline experiment::rule_verdict saturated_exactly_once_clean(const samples& s, const std::string& name) {
    using namespace experiment;
    const auto* c = find_configuration(s, name);
    if (auto no = cannot_answer(c)) return *no;
    const auto sum = experiment::summarize(c->run);
    facts f{{"duplicate_rows", c->run.duplicate_rows},
            {"kills", sum.kills},
            {"kills_to_refute", saturated_kills_to_refute}};
    const std::string what = "{duplicate_rows} duplicate rows after {kills} kills";
    if (c->run.duplicate_rows > 0) return refuted(std::move(f), what);
    if (sum.kills < saturated_kills_to_refute)
        return inconclusive(std::move(f), what + "; fewer than {kills_to_refute} kills");
    return held(std::move(f), what);
}

/// "No configuration loses a record": every seq 1..N is in every table.
inline experiment::rule_verdict nothing_missing(const samples& s) {
    using namespace experiment;
    if (s.configurations.empty()) return inconclusive({}, "no configuration ran");
    facts missing;  // per configuration that lost seqs
    std::string why;
    for (const auto& c : s.configurations) {
        if (c.run.rows == 0)
            return inconclusive({{"not_read_back", c.run.name}}, "{not_read_back}: the table was not read back");
        if (!c.run.missing_runs.empty() || c.run.distinct_seq != c.run.events) {
            facts one{{"missing_seqs", c.run.events - c.run.distinct_seq}, {"missing_runs", c.run.missing_runs.size()}};
            why += c.run.name + ": " + render(one, "{missing_seqs} seqs missing in {missing_runs} runs; ");
            missing[c.run.name] = std::move(one);
        }
    }
    if (missing.empty())
        return held({{"events", s.configurations.front().run.events}},
                    "every configuration's table holds every seq 1..{events}");
    return from_parts(verdict_kind::refuted, std::move(missing), why);
}

using rule = experiment::rule<samples, parameters>;

inline std::vector<rule> rules() {
    const auto c = configurations();
    std::vector<rule> out;
    out.push_back({"e1b.at-least-once-duplicates", [n = c[0].name](const samples& s, const parameters&) {
                       return at_least_once_duplicates(s, n, kills_to_refute);
                   }});
    for (const auto& x : {c[1], c[2]})
        out.push_back({"e1b.no-duplicates:" + x.name,
                       [n = x.name](const samples& s, const parameters&) { return exactly_once_clean(s, n); }});
    out.push_back({"e1b.saturated-at-least-once-duplicates", [n = c[3].name](const samples& s, const parameters&) {
                       return at_least_once_duplicates(s, n, saturated_kills_to_refute);
                   }});
    out.push_back({"e1b.saturated-exactly-once-clean", [n = c[4].name](const samples& s, const parameters&) {
                       return saturated_exactly_once_clean(s, n);
                   }});
    out.push_back({"e1b.nothing-missing", [](const samples& s, const parameters&) { return nothing_missing(s); }});
    return out;
}

}  // namespace rosterrig::e1b

#endif
