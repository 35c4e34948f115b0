// rosterrig/report/prose_figures.hpp: figures written by hand in the README's
// prose that no result yields.
//
// The generated sections (<!-- BEGIN x --> ... <!-- END x -->) are checked by
// comparing bytes; the prose around them is written by hand, and a number
// typed there ("lost 12,345 records") would otherwise pass --check. This
// header finds such figures: unsourced_figures(doc, yielded, allowed) returns
// every figure in hand-written prose whose value no number in `yielded`
// gives under one of the renderings below, and that `allowed` does not list.
//
// Hand-written prose is the document without: the generated sections (marker
// lines included), fenced code blocks, code spans (which may cross a line
// break inside a paragraph), HTML comments, link targets and bare URLs, a
// heading's section number ("### 7b.") and a numbered list's markers ("1.").
//
// A figure is a number that reads as a quantity (and only those: a README is
// full of numbers that are not measurements):
//   - followed by a unit or a counted noun: "120 s", "12 ms", "1 GB",
//     "20,000 records", "30 SIGKILLs", "8 times" (also glued, "12ms"); the
//     first number of a range takes the second's unit: "15 to 21 kill
//     cycles", "0-4 s", "5–9 s", "7 and 8 times";
//   - with a scale word before the unit: "1.2 M events" (1,200,000);
//   - a percentage ("95%") or a factor ("100×");
//   - grouped in thousands ("1,200,000"), whatever follows;
//   - either side of "of" between two numbers ("5 of 5");
//   - a decimal with one point that does not read as a version (see below);
//   - after a word that quantifies: "at most 626", "up to 7", "about 3",
//     "median 45";
//   - alone in parentheses, or first in them before a comma: "(250)",
//     "(375, plus ...)".
// Not figures, whatever else holds (the first match decides):
//   - issue and PR numbers ("#16282", "PR #18006"), and any number glued to a
//     word or path character: identifiers ("e3", "SHA-256", "C++20", "5xx",
//     "7b", "SigV4") and ports ("127.0.0.1:8181");
//   - dotted versions and addresses ("1.10.1", "127.0.0.1", "2.x");
//   - dates ("2026-11-30") and times of day ("12:30");
//   - a number right after a capitalised word, unless a unit, a scale word or
//     thousands grouping marks it as a quantity: names and versions ("Debian
//     12", "Java 25", "Kafka 4.3", "Trino 476", "Experiment 7");
//   - a decimal after "in", "on", "after", "before", "since" or "until", or
//     followed by "'s": a release ("fixed in 1.11", "after 1.10", "1.10's").
// Everything else (section and question numbers, seeds, exit codes, HTTP
// statuses, parallelisms, "lag 0") is a label, not a figure.
//
// A figure is yielded when some number y in `yielded` renders as it is
// written, each rendering being one a report would print:
//   - rounded to the precision written: "12 ms" is any y in [11.5, 12.5], and
//     "0.5 s" any in [0.45, 0.55] (a figure in prose is a rounded reading of
//     a measured value; a figure written with more digits is held tighter);
//   - sign dropped: prose says "lost 5", not "-5";
//   - a time unit from milliseconds or from seconds ("20 s" from
//     pause_ms: 20000; "2 minutes" from 120 s): results store durations in
//     *_ms fields, and a run's length in seconds;
//   - a size unit from bytes, in decimal or binary multiples ("1 GB" from
//     1073741824): results store sizes in bytes, and prose says MB for MiB;
//   - a percentage from a fraction or from a percentage ("95%" from 0.95);
//   - a scale word times the written value ("1.2 M events" from 1200000).
// No other arithmetic (sums, ratios, differences) is tried: with hundreds of
// thousands of numbers in the results, combining them would yield anything.
//
// Limits: a number spelled as a word ("two kills", "a third") is not read.
// And the check is only as sharp as the set it is given. The raw samples hold
// every integer below 1,000 somewhere (seqs, offsets, timestamps), so against
// them a small figure always had a source; rosterrig-report --check gives it
// instead what a reader is shown or told (result_numbers.hpp's
// numbers_in_result_parts: parameters, verdicts, the predictions' texts and
// reasons; and the generated sections), where a small figure can fail too.
#ifndef ROSTERRIG_REPORT_PROSE_FIGURES_HPP
#define ROSTERRIG_REPORT_PROSE_FIGURES_HPP

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rosterrig::report {

/// A figure in hand-written prose.
struct prose_figure {
    std::size_t line = 0;  // 1-based line of the document
    std::string written;   // the number as written, with its unit if any: "12,345 records", "0.5 s", "95%"
    double value = 0;      // its magnitude with a scale word applied: "1.2 M events" is 1200000
    int decimals = 0;      // digits after the point, as written
    double scale = 1;      // 1e6 for "M", 1e3 for "k"
    std::string unit;      // "s", "records", "%", "×", "" (none)
    std::string context;   // the line around it
};

/// A figure that legitimately comes from elsewhere (an engine's documented
/// default, a statistical convention): matched against prose_figure::written.
struct allowed_figure {
    std::string_view written;
    std::string_view why;
};

namespace detail::prose {

inline bool digit(char c) { return c >= '0' && c <= '9'; }
inline bool alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool word(char c) { return digit(c) || alpha(c) || c == '_'; }
inline bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline bool starts_with(std::string_view s, std::size_t at, std::string_view what) {
    return at <= s.size() && s.substr(at).starts_with(what);
}

inline constexpr std::string_view times_sign = "\xC3\x97";   // ×
inline constexpr std::string_view en_dash = "\xE2\x80\x93";  // –

// Units and counted nouns that make the number before them a figure.
inline constexpr std::string_view time_units[] = {"ms",     "millisecond", "milliseconds", "s",    "sec",    "secs",
                                                  "second", "seconds",     "min",          "mins", "minute", "minutes",
                                                  "h",      "hour",        "hours",        "day",  "days"};
inline constexpr std::string_view size_units[] = {"B",   "KB",   "kB",    "KiB",       "MB",        "MiB",      "GB",
                                                  "GiB", "byte", "bytes", "kilobytes", "megabytes", "gigabytes"};
inline constexpr std::string_view counted_nouns[] = {
    "record",   "records",  "row",       "rows",         "event",         "events",
    "kill",     "kills",    "SIGKILLs",  "trial",        "trials",        "file",
    "files",    "snapshot", "snapshots", "checkpoint",   "checkpoints",   "commit",
    "commits",  "provider", "providers", "assertion",    "assertions",    "member",
    "members",  "worker",   "workers",   "partition",    "partitions",    "subtask",
    "subtasks", "task",     "tasks",     "TaskManagers", "time",          "times",
    "repeat",   "repeats",  "run",       "runs",         "seq",           "seqs",
    "NPI",      "NPIs",     "duplicate", "duplicates",   "copy",          "copies",
    "delete",   "deletes",  "restart",   "restarts",     "request",       "requests",
    "error",    "errors",   "exception", "exceptions",   "line",          "lines",
    "poll",     "polls",    "batch",     "batches",      "job",           "jobs",
    "topic",    "topics",   "cell",      "cells",        "configuration", "configurations",
    "cycle",    "cycles",   "message",   "messages"};

inline bool listed(std::span<const std::string_view> list, std::string_view w) {
    return std::find(list.begin(), list.end(), w) != list.end();
}
inline bool unit_word(std::string_view w) {
    return listed(time_units, w) || listed(size_units, w) || listed(counted_nouns, w);
}
inline double scale_of(std::string_view w) {
    if (w == "M" || w == "million") return 1e6;
    if (w == "k" || w == "thousand") return 1e3;
    return 0;
}

// Seconds per unit, 0 for a unit that is not a time.
inline double seconds_per(std::string_view u) {
    if (u == "ms" || u == "millisecond" || u == "milliseconds") return 1e-3;
    if (u == "s" || u == "sec" || u == "secs" || u == "second" || u == "seconds") return 1;
    if (u == "min" || u == "mins" || u == "minute" || u == "minutes") return 60;
    if (u == "h" || u == "hour" || u == "hours") return 3600;
    if (u == "day" || u == "days") return 86400;
    return 0;
}
// Bytes per unit, decimal and binary; {0, 0} for a unit that is not a size.
inline std::array<double, 2> bytes_per(std::string_view u) {
    if (u == "B" || u == "byte" || u == "bytes") return {1, 1};
    if (u == "KB" || u == "kB" || u == "KiB" || u == "kilobytes") return {1e3, 1024.0};
    if (u == "MB" || u == "MiB" || u == "megabytes") return {1e6, 1024.0 * 1024};
    if (u == "GB" || u == "GiB" || u == "gigabytes") return {1e9, 1024.0 * 1024 * 1024};
    return {0, 0};
}

// The document with everything that is not hand-written prose blanked
// (newlines kept, so offsets and line numbers are the document's).
inline std::string prose_only(std::string_view doc) {
    std::string out(doc);
    auto blank = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to && i < out.size(); ++i)
            if (out[i] != '\n') out[i] = ' ';
    };
    // Line by line: fences, generated sections, heading numbers, list markers.
    bool fence = false, generated = false;
    std::string_view fence_mark;
    for (std::size_t pos = 0; pos < doc.size();) {
        std::size_t eol = doc.find('\n', pos);
        if (eol == std::string_view::npos) eol = doc.size();
        const std::string_view line = doc.substr(pos, eol - pos);
        const std::size_t indent = std::min(line.find_first_not_of(" \t"), line.size());
        const std::string_view text = line.substr(indent);
        if (fence) {
            blank(pos, eol);
            if (text.starts_with(fence_mark)) fence = false;
        } else if (text.starts_with("```") || text.starts_with("~~~")) {
            fence = true;
            fence_mark = text.substr(0, 3);
            blank(pos, eol);
        } else if (generated) {
            blank(pos, eol);
            if (line.find("<!-- END ") != std::string_view::npos) generated = false;
        } else if (const auto b = line.find("<!-- BEGIN "); b != std::string_view::npos) {
            blank(pos, eol);
            generated = line.find("<!-- END ", b) == std::string_view::npos;
        } else if (text.starts_with("#")) {
            // "### 7b. The Connect sink": the section number is a label.
            std::size_t i = text.find_first_not_of('#');
            i = std::min(text.find_first_not_of(' ', i == std::string_view::npos ? text.size() : i), text.size());
            std::size_t j = i;
            while (j < text.size() && (word(text[j]) || text[j] == '.')) ++j;
            if (i < text.size() && digit(text[i])) blank(pos + indent + i, pos + indent + j);
        } else {
            // "1. **What does a restart replay" or "2) ...": a list marker.
            std::size_t j = 0;
            while (j < text.size() && digit(text[j])) ++j;
            if (j > 0 && j < text.size() && (text[j] == '.' || text[j] == ')') &&
                (j + 1 == text.size() || text[j + 1] == ' '))
                blank(pos + indent, pos + indent + j + 1);
        }
        pos = eol + 1;
    }
    // Inline, over the whole text: a code span may cross a line break inside a
    // paragraph (never a blank line).
    for (std::size_t i = 0; i < out.size();) {
        if (starts_with(out, i, "<!--")) {
            const auto e = out.find("-->", i + 4);
            const auto to = e == std::string::npos ? out.size() : e + 3;
            blank(i, to);
            i = to;
        } else if (out[i] == '`') {
            std::size_t n = 0;
            while (i + n < out.size() && out[i + n] == '`') ++n;
            // The closing run: exactly n backticks, before the paragraph ends.
            const std::string_view rest(out.data() + i + n, out.size() - i - n);
            const auto paragraph_end = rest.find("\n\n");
            std::size_t close = std::string_view::npos;
            for (std::size_t k = 0; k < rest.size() && k < paragraph_end;) {
                if (rest[k] != '`') {
                    ++k;
                    continue;
                }
                std::size_t m = 0;
                while (k + m < rest.size() && rest[k + m] == '`') ++m;
                if (m == n) {
                    close = k;
                    break;
                }
                k += m;
            }
            if (close == std::string_view::npos) {
                i += n;  // a literal backtick run
                continue;
            }
            const auto to = i + n + close + n;
            blank(i, to);
            i = to;
        } else if (starts_with(out, i, "](")) {
            const auto e = out.find_first_of(")\n", i + 2);
            const auto to = e == std::string::npos ? out.size() : e + 1;
            blank(i + 1, to);
            i = to;
        } else if (starts_with(out, i, "http://") || starts_with(out, i, "https://")) {
            std::size_t to = i;
            while (to < out.size() && !space(out[to]) && out[to] != ')' && out[to] != '>') ++to;
            blank(i, to);
            i = to;
        } else {
            ++i;
        }
    }
    return out;
}

// A number as written at `at`: digits, groups of three after commas, and
// points followed by digits.
struct number_token {
    std::size_t begin = 0, end = 0;  // [begin, end) in the text
    double value = 0;
    int decimals = 0;
    int points = 0;
    bool grouped = false;
};

inline number_token read_number(std::string_view s, std::size_t at) {
    number_token t{at, at};
    std::string digits;
    std::size_t i = at;
    while (i < s.size() && digit(s[i])) digits += s[i++];
    // "12,000" groups; "2, 3" and "1,2" do not.
    if (i - at <= 3)
        while (i + 3 < s.size() + 0 && s[i] == ',' && digit(s[i + 1]) && digit(s[i + 2]) && digit(s[i + 3]) &&
               (i + 4 >= s.size() || !digit(s[i + 4]))) {
            digits.append(s.substr(i + 1, 3));
            i += 4;
            t.grouped = true;
        }
    std::string fraction;
    while (i + 1 < s.size() && s[i] == '.' && digit(s[i + 1])) {
        ++t.points;
        fraction.clear();
        ++i;
        while (i < s.size() && digit(s[i])) fraction += s[i++];
    }
    t.end = i;
    t.decimals = static_cast<int>(fraction.size());
    // from_chars, not strtod: a global locale's decimal comma must not change the value.
    const std::string text = fraction.empty() ? digits : digits + "." + fraction;
    std::from_chars(text.data(), text.data() + text.size(), t.value);
    return t;
}

// The word that ends before `at` (skipping spaces and line breaks), and where it starts.
inline std::string_view word_before(std::string_view s, std::size_t at, std::size_t* start = nullptr) {
    std::size_t e = at;
    while (e > 0 && space(s[e - 1])) --e;
    std::size_t b = e;
    while (b > 0 && (word(s[b - 1]) || s[b - 1] == '.' || s[b - 1] == '\'')) --b;
    while (b < e && !word(s[b])) ++b;  // a sentence's full stop is not part of the next word
    if (start) *start = b;
    return s.substr(b, e - b);
}

// The word starting at `at` after spaces (one line break allowed), and where it ends.
inline std::string_view word_after(std::string_view s, std::size_t at, std::size_t* end = nullptr) {
    std::size_t b = at;
    while (b < s.size() && space(s[b])) ++b;
    std::size_t e = b;
    while (e < s.size() && word(s[e])) ++e;
    if (end) *end = e;
    return s.substr(b, e - b);
}

// What follows a number that makes it a figure: a unit, possibly after a
// scale word ("1.2 M events"), "%" or "×". Empty unit and scale 1 when none.
struct unit_reading {
    std::string unit;
    double scale = 1;
    std::size_t end = 0;  // where the unit ends
    bool found = false;
};

inline unit_reading unit_after(std::string_view s, std::size_t at) {
    unit_reading r;
    r.end = at;
    if (starts_with(s, at, "%")) return {"%", 1, at + 1, true};
    if (starts_with(s, at, times_sign)) return {"×", 1, at + times_sign.size(), true};
    std::size_t e = 0;
    const std::string_view w = word_after(s, at, &e);
    if (const double sc = scale_of(w); sc != 0) {
        std::size_t e2 = 0;
        const std::string_view u = word_after(s, e, &e2);
        if (unit_word(u)) return {std::string(u), sc, e2, true};
        return {"", sc, e, true};
    }
    if (unit_word(w)) return {std::string(w), 1, e, true};
    return r;
}

// The line around [from, to): up to about 40 characters each side, cut at spaces.
inline std::string context_of(std::string_view doc, std::size_t from, std::size_t to) {
    const auto line_begin = doc.rfind('\n', from == 0 ? 0 : from - 1);
    const std::size_t lb = (line_begin == std::string_view::npos || from == 0) ? 0 : line_begin + 1;
    std::size_t le = doc.find('\n', to);
    if (le == std::string_view::npos) le = doc.size();
    std::size_t b = from > lb + 40 ? from - 40 : lb;
    std::size_t e = std::min(le, to + 40);
    if (b > lb) {
        const auto sp = doc.find(' ', b);
        if (sp != std::string_view::npos && sp < from) b = sp + 1;
    }
    if (e < le) {
        const auto sp = doc.rfind(' ', e);
        if (sp != std::string_view::npos && sp > to) e = sp;
    }
    std::string c = b > lb ? "…" : "";
    for (const char ch : doc.substr(b, e - b)) c += ch == '\n' ? ' ' : ch;
    if (e < le) c += "…";
    return c;
}

inline bool capitalised(std::string_view w) { return !w.empty() && w[0] >= 'A' && w[0] <= 'Z'; }

inline bool lower_equals(std::string_view w, std::string_view what) {
    if (w.size() != what.size()) return false;
    for (std::size_t i = 0; i < w.size(); ++i)
        if (static_cast<char>(w[i] | 0x20) != what[i]) return false;
    return true;
}

}  // namespace detail::prose

/// Every figure in the document's hand-written prose (see the header comment
/// for what counts), in document order.
inline std::vector<prose_figure> prose_figures(std::string_view doc) {
    using namespace detail::prose;
    const std::string m = prose_only(doc);
    const std::string_view s = m;
    std::vector<prose_figure> figures;
    std::size_t line = 1, counted_to = 0;
    for (std::size_t i = 0; i < s.size();) {
        if (!digit(s[i])) {
            ++i;
            continue;
        }
        const char before = i > 0 ? s[i - 1] : ' ';
        // A minus sign after a space or "(" is a sign, and "-" after a digit
        // joins a range ("0-4 s"); any other "-" joins an identifier.
        const bool sign = before == '-' && (i < 2 || space(s[i - 2]) || s[i - 2] == '(');
        const bool range_dash = before == '-' && i >= 2 && digit(s[i - 2]);
        // Glued to a word, a path, an issue or a version: an identifier.
        if (word(before) || std::string_view("#./+:@$~\\'=&<>").find(before) != std::string_view::npos ||
            (before == '-' && !sign && !range_dash)) {
            while (i < s.size() && (word(s[i]) || s[i] == '.' || s[i] == ',')) ++i;
            continue;
        }
        const number_token t = read_number(s, i);
        std::size_t next = t.end;
        auto skip_identifier = [&] {
            while (next < s.size() && (word(s[next]) || s[next] == '.' || s[next] == '-' || s[next] == ':')) ++next;
            i = next;
        };
        if (t.points >= 2) {  // 1.10.1, 127.0.0.1
            skip_identifier();
            continue;
        }
        // 2026-11-30, 12:30
        if ((t.end - t.begin == 4 && t.end + 5 < s.size() && s[t.end] == '-' && digit(s[t.end + 1]) &&
             digit(s[t.end + 2]) && s[t.end + 3] == '-') ||
            (t.end + 1 < s.size() && s[t.end] == ':' && digit(s[t.end + 1]))) {
            skip_identifier();
            continue;
        }
        // 2.x, 5xx, 7b, 1b's: an identifier; 12ms, 5s: a glued unit.
        unit_reading unit;
        if (t.end + 1 < s.size() && s[t.end] == '.' && alpha(s[t.end + 1])) {
            skip_identifier();
            continue;
        }
        if (t.end < s.size() && (word(s[t.end]) || s[t.end] == '/')) {
            // A glued unit ends the token: "12ms." is one, "12ms_x" and "4MB/s" are not.
            std::size_t e = t.end;
            while (e < s.size() && alpha(s[e])) ++e;
            const std::string_view glued = s.substr(t.end, e - t.end);
            const bool unit_like = seconds_per(glued) != 0 || bytes_per(glued)[0] != 0;
            const bool ends = e == s.size() || !(word(s[e]) || s[e] == '/' ||
                                                 ((s[e] == '-' || s[e] == '.') && e + 1 < s.size() && word(s[e + 1])));
            if (!unit_like || !ends) {
                skip_identifier();
                continue;
            }
            unit = {std::string(glued), 1, e, true};
        } else {
            unit = unit_after(s, t.end);
        }
        // A range takes the second number's unit: "15 to 21 kill cycles", "0-4 s", "5–9 s".
        if (!unit.found) {
            std::size_t j = t.end;
            while (j < s.size() && s[j] == ' ') ++j;
            std::size_t after = std::string_view::npos;
            if (starts_with(s, j, "-"))
                after = j + 1;
            else if (starts_with(s, j, en_dash))
                after = j + en_dash.size();
            else {
                std::size_t e = 0;
                const std::string_view w = word_after(s, j, &e);
                if (w == "to" || w == "and" || w == "or") after = e;
            }
            if (after != std::string_view::npos) {
                while (after < s.size() && s[after] == ' ') ++after;
                if (after < s.size() && digit(s[after])) {
                    const number_token second = read_number(s, after);
                    const unit_reading u = unit_after(s, second.end);
                    if (u.found && !u.unit.empty()) unit = {u.unit, u.scale, t.end, true};
                }
            }
        }
        std::size_t prev_start = 0;
        const std::size_t number_begin = sign ? i - 1 : i;
        const std::string_view prev = word_before(s, number_begin, &prev_start);
        // "N of M", either side.
        bool of_pair = false;
        {
            std::size_t e = 0;
            if (word_after(s, t.end, &e) == "of") {
                std::size_t j = e;
                while (j < s.size() && s[j] == ' ') ++j;
                of_pair = j < s.size() && digit(s[j]);
            }
            if (prev == "of") {
                std::size_t p = prev_start;
                while (p > 0 && s[p - 1] == ' ') --p;
                of_pair = of_pair || (p > 0 && digit(s[p - 1]));
            }
        }
        std::size_t prev2_start = 0;
        const std::string_view prev2 = word_before(s, prev_start, &prev2_start);
        const bool possessive = starts_with(s, t.end, "'s");
        const bool quantified =
            lower_equals(prev, "about") || lower_equals(prev, "around") || lower_equals(prev, "roughly") ||
            lower_equals(prev, "nearly") || lower_equals(prev, "almost") || lower_equals(prev, "approximately") ||
            lower_equals(prev, "median") || lower_equals(prev, "mean") || lower_equals(prev, "average") ||
            ((prev == "most" || prev == "least") && lower_equals(prev2, "at")) ||
            (prev == "to" && lower_equals(prev2, "up"));
        const bool parenthesised = before == '(' || (sign && i >= 2 && s[i - 2] == '(');
        const bool alone_in_parentheses =
            parenthesised && t.end < s.size() && (s[t.end] == ')' || s[t.end] == ',') && !possessive;
        const bool release_word =
            prev == "in" || prev == "on" || prev == "after" || prev == "before" || prev == "since" || prev == "until";
        const bool decimal = t.points == 1 && !possessive && !release_word;
        bool figure = false;
        if (unit.found || t.grouped)
            figure = true;  // a quantity, whatever the word before says
        else if (capitalised(prev) && !parenthesised)
            figure = false;  // a name or a version: "Debian 12", "Kafka 4.3"
        else
            figure = of_pair || decimal || quantified || alone_in_parentheses;
        const std::size_t end = unit.found && unit.end > t.end ? unit.end : t.end;
        if (figure) {
            for (; counted_to < number_begin; ++counted_to)
                if (doc[counted_to] == '\n') ++line;
            prose_figure f;
            f.line = line;
            f.written = std::string(doc.substr(number_begin, end - number_begin));
            for (auto& c : f.written)
                if (c == '\n') c = ' ';
            f.value = t.value;
            f.decimals = t.decimals;
            f.scale = unit.scale;
            f.unit = unit.unit;
            f.context = context_of(doc, number_begin, end);
            figures.push_back(std::move(f));
        }
        i = t.end;
    }
    return figures;
}

/// Whether some number in `sorted_yield` (ascending) renders as `f` (see the
/// header comment for the renderings).
inline bool yielded_by(const prose_figure& f, std::span<const double> sorted_yield) {
    using namespace detail::prose;
    const double target = std::abs(f.value) * f.scale;
    // Rounded to the precision written, in the written scale.
    const double tolerance = 0.5 * std::pow(10.0, -f.decimals) * f.scale * (1 + 1e-9) + 1e-9 * target;
    // The factors c with written == y * c that a rendering allows.
    std::vector<double> factors{1.0};
    if (const double sec = seconds_per(f.unit); sec != 0) {
        factors = {1e-3 / sec, 1.0 / sec};  // from milliseconds, from seconds
    } else if (const auto bytes = bytes_per(f.unit); bytes[0] != 0) {
        factors = {1.0 / bytes[0], 1.0 / bytes[1]};
    } else if (f.unit == "%") {
        factors = {100.0, 1.0};
    }
    for (const double c : factors) {
        const double lo = (target - tolerance) / c, hi = (target + tolerance) / c;
        // Magnitudes: a negative yielded number is looked up by its absolute value too.
        for (const double sign : {1.0, -1.0}) {
            const double a = sign > 0 ? lo : -hi, b = sign > 0 ? hi : -lo;
            const auto it = std::lower_bound(sorted_yield.begin(), sorted_yield.end(), a);
            if (it != sorted_yield.end() && *it <= b) return true;
        }
    }
    return false;
}

/// The figures of the document's hand-written prose that no number in
/// `yielded` gives and `allowed` does not list, in document order.
inline std::vector<prose_figure> unsourced_figures(std::string_view doc, std::vector<double> yielded,
                                                   std::span<const allowed_figure> allowed = {}) {
    std::sort(yielded.begin(), yielded.end());
    std::vector<prose_figure> out;
    for (auto& f : prose_figures(doc)) {
        const bool listed = std::any_of(allowed.begin(), allowed.end(),
                                        [&](const allowed_figure& a) { return a.written == f.written; });
        if (!listed && !yielded_by(f, yielded)) out.push_back(std::move(f));
    }
    return out;
}

}  // namespace rosterrig::report

#endif
