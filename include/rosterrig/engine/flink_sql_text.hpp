// rosterrig/engine/flink_sql_text.hpp: reading the Flink SQL templates the
// experiments submit (sql/*.sql) as text, so that what a table declares (its
// columns, primary key and WITH properties) can be checked without a cluster.
//
// Not a SQL parser: it knows the one statement shape the templates use,
//   CREATE [TEMPORARY] TABLE <name> ( <columns and constraints> ) WITH ( 'k' = 'v', ... )
// and refuses anything else with std::invalid_argument, so a template that
// drifts from that shape fails loudly instead of reading as "no key".
#ifndef ROSTERRIG_ENGINE_FLINK_SQL_TEXT_HPP
#define ROSTERRIG_ENGINE_FLINK_SQL_TEXT_HPP

#include <cctype>
#include <cstddef>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rosterrig::engine {

struct sql_column {
    std::string name;  // without backquotes
    std::string type;  // the rest of the definition, whitespace collapsed
    friend bool operator==(const sql_column&, const sql_column&) = default;
};

struct create_table_text {
    std::string name;  // as written, e.g. lake.${namespace}.${table}
    bool temporary = false;
    std::vector<sql_column> columns;                      // in declaration order
    std::optional<std::vector<std::string>> primary_key;  // column names, when declared
    bool primary_key_not_enforced = false;                // Flink accepts only NOT ENFORCED keys
    std::map<std::string, std::string> properties;        // the WITH ( ... ) options, unquoted
};

namespace detail {

inline bool sql_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

inline std::string collapse_space(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (sql_space(c)) {
            if (!out.empty() && out.back() != ' ') out.push_back(' ');
        } else {
            out.push_back(c);
        }
    }
    if (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

inline std::string upper(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// The text with "--" comments blanked out (outside '...' literals), so that a
// parenthesis or quote in a comment cannot unbalance what follows.
inline std::string blank_comments(std::string_view text) {
    std::string out(text);
    bool quoted = false;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i] == '\'')
            quoted = !quoted;  // '' inside a literal toggles twice
        else if (!quoted && out[i] == '-' && i + 1 < out.size() && out[i + 1] == '-')
            while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    }
    return out;
}

// Index of the parenthesis closing the one at `open`, skipping '...' literals.
inline std::size_t closing_paren(std::string_view s, std::size_t open) {
    int depth = 0;
    bool quoted = false;
    for (std::size_t i = open; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '\'')
            quoted = !quoted;
        else if (quoted)
            continue;
        else if (c == '(')
            ++depth;
        else if (c == ')' && --depth == 0)
            return i;
    }
    throw std::invalid_argument("unbalanced parenthesis at offset " + std::to_string(open));
}

// Splits at commas outside parentheses and literals; each piece trimmed.
inline std::vector<std::string> split_top_level(std::string_view s) {
    std::vector<std::string> out;
    int depth = 0;
    bool quoted = false;
    std::size_t start = 0;
    auto push = [&](std::size_t end) {
        auto piece = collapse_space(s.substr(start, end - start));
        if (!piece.empty()) out.push_back(piece);
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '\'')
            quoted = !quoted;
        else if (quoted)
            continue;
        else if (c == '(')
            ++depth;
        else if (c == ')')
            --depth;
        else if (c == ',' && depth == 0) {
            push(i);
            start = i + 1;
        }
    }
    push(s.size());
    return out;
}

inline std::string unquote_identifier(std::string_view s) {
    if (s.size() >= 2 && s.front() == '`' && s.back() == '`') return std::string(s.substr(1, s.size() - 2));
    return std::string(s);
}

inline std::string unquote_literal(std::string_view s) {
    if (s.size() < 2 || s.front() != '\'' || s.back() != '\'')
        throw std::invalid_argument("expected a '...' literal, found: " + std::string(s));
    std::string out;
    for (std::size_t i = 1; i + 1 < s.size(); ++i) {
        out.push_back(s[i]);
        if (s[i] == '\'') ++i;  // '' is one quote
    }
    return out;
}

// Skips whitespace, then expects the keyword (case-insensitive); returns the index after it.
inline std::optional<std::size_t> keyword_at(std::string_view s, std::size_t i, std::string_view word) {
    while (i < s.size() && sql_space(s[i])) ++i;
    if (upper(s.substr(i, word.size())) != word) return std::nullopt;
    const std::size_t end = i + word.size();
    if (end < s.size() && (std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '_')) return std::nullopt;
    return end;
}

}  // namespace detail

/// The text without its whole-line "--" comments: the rule the live pipeline
/// uses for a fragment spliced into a statement (roster_columns.sql).
inline std::string without_comment_lines(std::string_view text) {
    std::string out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        auto line = text.substr(pos, end - pos);
        if (line.substr(0, 2) != "--") {
            if (!out.empty()) out.push_back('\n');
            out.append(line);
        }
        if (end == text.size()) break;
        pos = end + 1;
    }
    // A trailing newline in the file would otherwise leave an empty last line.
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

/// `s` as the inside of a SQL string literal ('...'): each ' doubled, so a
/// value from a stack description (a JAAS line, a token) cannot end the literal.
inline std::string sql_string_body(std::string_view s) {
    std::string out;
    for (char c : s) {
        out += c;
        if (c == '\'') out += '\'';
    }
    return out;
}

/// More table properties as the table templates take them in place of
/// ${table_properties}: each as `,\n  'key' = 'value'` after the last fixed one.
inline std::string table_properties_text(const std::map<std::string, std::string>& properties) {
    std::string out;
    for (const auto& [k, v] : properties) out += ",\n  '" + k + "' = '" + v + "'";
    return out;
}

/// sql/catalog.sql's ${catalog_options}: the lines before them (`existing`,
/// the token line or ""), then one `  'key' = 'value',` line per property, each
/// quoted for a SQL string (a property the experiment adds to its job's
/// CREATE CATALOG, such as 'rest.client.socket-timeout-ms').
inline std::string catalog_option_lines(std::string existing, const std::map<std::string, std::string>& properties) {
    for (const auto& [k, v] : properties) {
        if (!existing.empty() && existing.back() != '\n') existing += "\n";
        existing += "  '" + sql_string_body(k) + "' = '" + sql_string_body(v) + "',";
    }
    return existing;
}

/// The names of the ${...} placeholders in `text`, in order, with repeats.
inline std::vector<std::string> placeholders(std::string_view text) {
    std::vector<std::string> out;
    for (auto open = text.find("${"); open != std::string_view::npos; open = text.find("${", open + 2)) {
        const auto close = text.find('}', open);
        if (close == std::string_view::npos)
            throw std::invalid_argument("unterminated ${ at offset " + std::to_string(open));
        out.emplace_back(text.substr(open + 2, close - open - 2));
    }
    return out;
}

/// `text` with every ${name} replaced by `value`; other placeholders kept.
inline std::string fill_placeholder(std::string_view text, std::string_view name, std::string_view value) {
    const std::string token = "${" + std::string(name) + "}";
    std::string out;
    std::size_t pos = 0;
    for (auto at = text.find(token); at != std::string_view::npos; at = text.find(token, pos)) {
        out.append(text.substr(pos, at - pos)).append(value);
        pos = at + token.size();
    }
    return out.append(text.substr(pos));
}

/// Column definitions as they appear inside CREATE TABLE ( ... ), e.g. the
/// body of roster_columns.sql. Refuses constraints: only columns belong here.
inline std::vector<sql_column> parse_columns(std::string_view body) {
    std::vector<sql_column> out;
    for (const auto& piece : detail::split_top_level(detail::blank_comments(body))) {
        const auto space = piece.find(' ');
        if (space == std::string::npos) throw std::invalid_argument("column without a type: " + piece);
        const auto first = detail::upper(piece.substr(0, space));
        if (first == "PRIMARY" || first == "CONSTRAINT" || first == "WATERMARK")
            throw std::invalid_argument("not a column definition: " + piece);
        out.push_back({detail::unquote_identifier(piece.substr(0, space)), piece.substr(space + 1)});
    }
    return out;
}

/// The one CREATE TABLE statement in `sql` (comments allowed anywhere).
/// Throws std::invalid_argument when there is none, more than one, or the
/// statement is not CREATE [TEMPORARY] TABLE name ( ... ) WITH ( ... ).
inline create_table_text parse_create_table(std::string_view sql) {
    using detail::keyword_at;
    const std::string text = detail::blank_comments(sql);
    const std::string up = detail::upper(text);
    // CREATE as a word: "created_at" is a column, not a statement.
    std::vector<std::size_t> creates;
    for (auto at = up.find("CREATE"); at != std::string::npos; at = up.find("CREATE", at + 1))
        if ((at == 0 || (!std::isalnum(static_cast<unsigned char>(up[at - 1])) && up[at - 1] != '_')) &&
            keyword_at(up, at, "CREATE"))
            creates.push_back(at);
    if (creates.empty()) throw std::invalid_argument("no CREATE TABLE statement");
    if (creates.size() > 1) throw std::invalid_argument("more than one CREATE statement");

    create_table_text out;
    std::size_t i = creates.front() + 6;
    if (auto t = keyword_at(text, i, "TEMPORARY")) {
        out.temporary = true;
        i = *t;
    }
    auto table = keyword_at(text, i, "TABLE");
    if (!table) throw std::invalid_argument("CREATE is not followed by [TEMPORARY] TABLE");
    i = *table;

    const auto open = text.find('(', i);
    if (open == std::string::npos) throw std::invalid_argument("CREATE TABLE without a column list");
    out.name = detail::collapse_space(std::string_view(text).substr(i, open - i));
    if (out.name.empty() || out.name.find(' ') != std::string::npos)
        throw std::invalid_argument("CREATE TABLE name is not one identifier: '" + out.name + "'");
    const auto close = detail::closing_paren(text, open);

    for (const auto& piece : detail::split_top_level(std::string_view(text).substr(open + 1, close - open - 1))) {
        std::string_view p = piece;
        const auto head = detail::upper(p.substr(0, p.find(' ')));
        if (head == "CONSTRAINT") {  // CONSTRAINT <name> PRIMARY KEY (...)
            const auto pk = detail::upper(p).find("PRIMARY KEY");
            if (pk == std::string::npos) throw std::invalid_argument("unsupported constraint: " + piece);
            p = p.substr(pk);
        }
        if (detail::upper(p.substr(0, 11)) == "PRIMARY KEY") {
            if (out.primary_key) throw std::invalid_argument("two PRIMARY KEY clauses");
            const auto kopen = p.find('(');
            if (kopen == std::string_view::npos) throw std::invalid_argument("PRIMARY KEY without columns: " + piece);
            const auto kclose = detail::closing_paren(p, kopen);
            std::vector<std::string> key;
            for (const auto& k : detail::split_top_level(p.substr(kopen + 1, kclose - kopen - 1)))
                key.push_back(detail::unquote_identifier(k));
            out.primary_key = key;
            out.primary_key_not_enforced =
                detail::collapse_space(detail::upper(p.substr(kclose + 1))) == "NOT ENFORCED";
        } else if (head == "WATERMARK") {
            continue;  // not a column, not a key: nothing the checks read
        } else {
            auto cols = parse_columns(p);
            out.columns.insert(out.columns.end(), cols.begin(), cols.end());
        }
    }

    auto with = keyword_at(text, close + 1, "WITH");
    if (!with) throw std::invalid_argument("CREATE TABLE " + out.name + " has no WITH ( ... ) after its columns");
    const auto wopen = text.find('(', *with);
    if (wopen == std::string::npos ||
        text.substr(*with, wopen - *with).find_first_not_of(" \t\r\n") != std::string::npos)
        throw std::invalid_argument("WITH is not followed by (");
    const auto wclose = detail::closing_paren(text, wopen);
    for (const auto& option : detail::split_top_level(std::string_view(text).substr(wopen + 1, wclose - wopen - 1))) {
        // 'key' = 'value': the '=' is the first one outside the key's literal.
        const auto key_end = option.find('\'', 1);
        const auto eq = key_end == std::string::npos ? std::string::npos : option.find('=', key_end);
        if (eq == std::string::npos) throw std::invalid_argument("WITH option is not 'key' = 'value': " + option);
        auto key = detail::unquote_literal(detail::collapse_space(std::string_view(option).substr(0, eq)));
        auto value = detail::unquote_literal(detail::collapse_space(std::string_view(option).substr(eq + 1)));
        if (!out.properties.emplace(key, value).second) throw std::invalid_argument("WITH option given twice: " + key);
    }
    const auto rest = std::string_view(text).substr(wclose + 1);
    if (rest.find_first_not_of(" \t\r\n;") != std::string_view::npos)
        throw std::invalid_argument("text after the CREATE TABLE statement");
    return out;
}

/// The names of the columns, in order: what "the same columns" compares.
inline std::vector<std::string> column_names(const std::vector<sql_column>& columns) {
    std::vector<std::string> out;
    for (const auto& c : columns) out.push_back(c.name);
    return out;
}

}  // namespace rosterrig::engine

#endif
