// rosterrig/experiment/job_template.hpp: the writer under test as a value — a
// Flink SQL template that creates the sink table and inserts the roster feed
// into it — and what the rig needs of it before any fault: its placeholders
// known, one INSERT, and a sink table with the columns the checks read.
//
// The rig's own jobs are the templates `rig_template(append|upsert)` names
// (sql/<kind>_table.sql + sql/insert.sql); a user's (`--job FILE`) runs in
// their place. The rig always provides the catalog `lake` (sql/catalog.sql)
// and the feed as the temporary table `roster_feed` (sql/roster_source.sql).
#ifndef ROSTERRIG_EXPERIMENT_JOB_TEMPLATE_HPP
#define ROSTERRIG_EXPERIMENT_JOB_TEMPLATE_HPP

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <boost/describe.hpp>

#include "rosterrig/experiment/job_plan.hpp"
#include "rosterrig/experiment/pipeline_config.hpp"

namespace rosterrig::experiment {

/// A placeholder a template may use, and what the rig puts there.
struct template_placeholder {
    std::string_view name, meaning;
};

/// Every placeholder a job template may use; anything else is refused before a run.
inline const std::vector<template_placeholder>& job_template_placeholders() {
    static const std::vector<template_placeholder> all{
        {"catalog", "the Iceberg catalog's name in Flink: lake"},
        {"namespace", "the namespace the run's tables go in"},
        {"table", "the table the run creates (a fresh name per run; the checks read it)"},
        {"location", "where that table's files go (the run's warehouse choice)"},
        {"roster_columns", "the roster record's thirteen columns, as sql/roster_columns.sql declares them"},
        {"table_properties", "the experiment's own table properties as \",\\n  'key' = 'value'\" lines (may be empty)"},
        {"sink_hints", "the experiment's own INSERT hint (may be empty)"},
    };
    return all;
}

/// The ${name}s in `text`, in order of first use; an unterminated "${" is returned as "${".
inline std::vector<std::string> placeholders_in(std::string_view text) {
    std::vector<std::string> out;
    for (std::size_t pos = 0;;) {
        const auto open = text.find("${", pos);
        if (open == std::string_view::npos) break;
        const auto close = text.find('}', open);
        std::string name =
            close == std::string_view::npos ? "${" : std::string(text.substr(open + 2, close - open - 2));
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
        if (close == std::string_view::npos) break;
        pos = close + 1;
    }
    return out;
}

/// Splits a script into statements: ';' at a line's end ends one; "--" lines
/// are comments. The same rule the SQL Gateway client applies.
inline std::vector<std::string> sql_statements(std::string_view script) {
    std::vector<std::string> out;
    std::string current;
    std::size_t pos = 0;
    while (pos <= script.size()) {
        auto end = script.find('\n', pos);
        if (end == std::string_view::npos) end = script.size();
        std::string line(script.substr(pos, end - pos));
        pos = end + 1;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line.compare(first, 2, "--") == 0) {
            if (end == script.size()) break;
            continue;
        }
        const auto last = line.find_last_not_of(" \t\r");
        const bool ends = line[last] == ';';
        current += (current.empty() ? "" : "\n") + line.substr(0, ends ? last : last + 1);
        if (ends) out.push_back(std::exchange(current, {}));
        if (end == script.size()) break;
    }
    if (current.find_first_not_of(" \t\r\n") != std::string::npos) out.push_back(current);
    return out;
}

/// What a statement does, from its first words.
enum class statement_kind { create_table, insert, set, other };

inline statement_kind kind_of_statement(std::string_view statement) {
    std::string words;
    for (char c : statement) {
        if (words.size() >= 32) break;
        const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!words.empty() && words.back() != ' ') words += ' ';
        } else
            words += u;
    }
    auto starts = [&](std::string_view p) { return words.rfind(p, 0) == 0; };
    if (starts("CREATE TABLE")) return statement_kind::create_table;
    if (starts("INSERT INTO") || starts("INSERT OVERWRITE")) return statement_kind::insert;
    if (starts("SET ")) return statement_kind::set;
    return statement_kind::other;
}

/// A job template as a run records it: the file's text, its digest, and what
/// the SQL Gateway planned of it before the run (set by the driver).
struct planned_column {
    std::string name;
    std::string type;  ///< as Flink's DESCRIBE reports it, e.g. "BIGINT", "STRING NOT NULL"
    friend bool operator==(const planned_column&, const planned_column&) = default;
};
BOOST_DESCRIBE_STRUCT(planned_column, (), (name, type))

/// The template's sink table and job as Flink planned them, before anything was created.
struct template_plan {
    std::vector<planned_column> columns;   ///< the sink table's, from DESCRIBE
    std::vector<std::string> primary_key;  ///< the sink table's key columns; empty: none
    std::string create_table;              ///< the sink table as SHOW CREATE TABLE prints it (partitioning, options)
    std::vector<plan_edge> edges;  ///< the INSERT's execution plan (EXPLAIN JSON_EXECUTION_PLAN), vertex by vertex
    std::string sink;              ///< which Iceberg sink the plan holds (sink_in_plan)
    table_kind kind = table_kind::append;  ///< upsert when the key is npi, append when there is none
};
BOOST_DESCRIBE_STRUCT(template_plan, (), (columns, primary_key, create_table, edges, sink, kind))

struct job_template {
    std::string name;    ///< the file's name, or the rig's template's
    std::string sha256;  ///< of text
    std::string text;    ///< the template as read, before its placeholders are filled
    std::optional<template_plan> plan;
};
BOOST_DESCRIBE_STRUCT(job_template, (), (name, sha256, text, plan))

/// What keeps a template from running, decided from its text alone (empty: nothing).
inline std::vector<std::string> template_text_problems(std::string_view text) {
    std::vector<std::string> out;
    for (const auto& name : placeholders_in(text)) {
        const auto& known = job_template_placeholders();
        if (name == "${")
            out.push_back("an unterminated ${");
        else if (std::none_of(known.begin(), known.end(), [&](const auto& p) { return p.name == name; }))
            out.push_back("unknown placeholder ${" + name + "}");
    }
    int creates = 0, inserts = 0;
    for (const auto& s : sql_statements(text)) {
        const auto k = kind_of_statement(s);
        creates += k == statement_kind::create_table;
        inserts += k == statement_kind::insert;
    }
    if (inserts != 1)
        out.push_back("the template holds " + std::to_string(inserts) + " INSERT statements; it needs exactly one");
    if (creates != 1)
        out.push_back("the template holds " + std::to_string(creates) +
                      " CREATE TABLE statements; it needs exactly one (the sink table)");
    const auto used = placeholders_in(text);
    for (const char* needed : {"table", "namespace"})
        if (std::find(used.begin(), used.end(), needed) == used.end())
            out.push_back(std::string("the template never uses ${") + needed + "}: the run could not find its table");
    return out;
}

inline std::string upper(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

/// The columns the checks read from the sink table, with the type each must
/// have: seq identifies a record, npi is the natural key, and the provider
/// fields are compared with the model's (observe_table.cpp reads exactly these).
inline const std::vector<planned_column>& checked_columns() {
    static const std::vector<planned_column> all{
        {"seq", "BIGINT"},  {"npi", "STRING"},   {"name", "STRING"}, {"taxonomy", "STRING"}, {"address", "STRING"},
        {"city", "STRING"}, {"state", "STRING"}, {"zip", "STRING"},  {"phone", "STRING"},    {"status", "STRING"}};
    return all;
}

/// What the checks need of the sink table and do not find (empty: nothing):
/// every checked column, of its type (seq may be INT too), and a key that is
/// either none (append) or holds npi (upsert; a key with more columns than
/// npi is checked per npi, so its other columns must follow from npi).
inline std::vector<std::string> sink_table_problems(const template_plan& p) {
    std::vector<std::string> out;
    for (const auto& want : checked_columns()) {
        const auto it =
            std::find_if(p.columns.begin(), p.columns.end(), [&](const auto& c) { return c.name == want.name; });
        if (it == p.columns.end()) {
            out.push_back("the sink table has no column " + want.name + " (" + want.type + ")");
            continue;
        }
        const auto type = upper(it->type);
        const bool fits = want.type == "BIGINT" ? type.rfind("BIGINT", 0) == 0 || type.rfind("INT", 0) == 0
                                                : type.rfind("STRING", 0) == 0 || type.rfind("VARCHAR", 0) == 0;
        if (!fits) out.push_back("the sink table's " + want.name + " is " + it->type + ", not " + want.type);
    }
    if (!p.primary_key.empty() && std::find(p.primary_key.begin(), p.primary_key.end(), "npi") == p.primary_key.end()) {
        std::string key;
        for (const auto& k : p.primary_key) key += (key.empty() ? "" : ", ") + k;
        out.push_back("the sink table's primary key is (" + key + "); the upsert check needs npi in it, or no key");
    }
    return out;
}

/// The table kind the checks apply: upsert for a key that holds npi, else append.
inline table_kind kind_of_key(const std::vector<std::string>& primary_key) {
    return std::find(primary_key.begin(), primary_key.end(), "npi") != primary_key.end() ? table_kind::upsert
                                                                                         : table_kind::append;
}

/// Which Iceberg sink a plan holds, from its vertices' names (as Flink 1.20
/// with Iceberg 1.10 names them): FlinkSink runs an IcebergStreamWriter and an
/// IcebergFilesCommitter (and ends in a discarding sink named "IcebergSink
/// <table>"); SinkV2 (IcebergSink) runs "<table>: Writer", "<table>: Sink
/// pre-commit aggregator: <table>" and "<table>: Committer".
inline std::string sink_in_plan(const std::vector<plan_edge>& edges) {
    bool stream_writer = false, aggregator = false;
    for (const auto& e : edges) {
        for (const auto* v : {&e.from, &e.to}) {
            if (v->find("IcebergStreamWriter") != std::string::npos) stream_writer = true;
            if (v->find("Sink pre-commit aggregator") != std::string::npos) aggregator = true;
        }
    }
    if (stream_writer) return "FlinkSink (IcebergStreamWriter, IcebergFilesCommitter), as the plan names it";
    if (aggregator) return "IcebergSink (SinkV2: Writer, pre-commit aggregator, Committer), as the plan names it";
    return "unknown: the plan names no Iceberg writer";
}

}  // namespace rosterrig::experiment

#endif
