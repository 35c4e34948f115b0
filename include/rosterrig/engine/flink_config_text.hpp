// rosterrig/engine/flink_config_text.hpp: reading the Flink configuration the
// stack writes (compose/flink/component.sh writes config.yaml from a heredoc)
// as text, so the settings the experiments depend on can be checked offline.
//
// Not a YAML parser: Flink's config.yaml as the stack writes it is flat
// "key: value" lines with "#" comments. Anything else (nesting, a list, a key
// given twice) is refused with std::invalid_argument, so a config that outgrows
// this reader fails the checks instead of reading as "setting absent".
#ifndef ROSTERRIG_ENGINE_FLINK_CONFIG_TEXT_HPP
#define ROSTERRIG_ENGINE_FLINK_CONFIG_TEXT_HPP

#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rosterrig::engine {

namespace detail {
inline std::string_view trim_blanks(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// Calls f(line) for each line of text, without the newline.
template <class F>
void for_each_line(std::string_view text, F&& f) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        f(text.substr(pos, end - pos));
        pos = end + 1;
    }
}
}  // namespace detail

/// The body of the first heredoc in a shell script whose opening line
/// mentions `target` (e.g. "config.yaml" for `cat > "$X/config.yaml" <<EOF`),
/// up to the line holding only its delimiter. Shell variables stay unexpanded.
inline std::string heredoc_body(std::string_view script, std::string_view target) {
    std::string body, delimiter;
    bool inside = false, done = false;
    detail::for_each_line(script, [&](std::string_view line) {
        if (done) return;
        if (inside) {
            if (line == delimiter) {
                done = true;
                return;
            }
            body.append(line).push_back('\n');
            return;
        }
        const auto here = line.find("<<");
        if (here == std::string_view::npos || line.find(target) == std::string_view::npos) return;
        auto word = detail::trim_blanks(line.substr(here + 2));
        if (!word.empty() && word.front() == '-')
            throw std::invalid_argument("heredoc <<- (tab-stripping) is not supported");
        word = word.substr(0, word.find_first_of(" \t;|&"));
        if (word.size() >= 2 && (word.front() == '\'' || word.front() == '"') && word.back() == word.front())
            word = word.substr(1, word.size() - 2);
        if (word.empty()) throw std::invalid_argument("heredoc without a delimiter: " + std::string(line));
        delimiter = std::string(word);
        inside = true;
    });
    if (!inside) throw std::invalid_argument("no heredoc writing " + std::string(target));
    if (!done) throw std::invalid_argument("heredoc writing " + std::string(target) + " has no closing " + delimiter);
    return body;
}

/// The "key: value" lines of a flat YAML document, values unquoted. Blank
/// lines and "#" comment lines are skipped; a value's trailing " #" comment is
/// dropped.
inline std::map<std::string, std::string> parse_flat_config(std::string_view text) {
    std::map<std::string, std::string> out;
    int number = 0;
    detail::for_each_line(text, [&](std::string_view raw) {
        ++number;
        const auto line = detail::trim_blanks(raw);
        if (line.empty() || line.front() == '#') return;
        auto fail = [&](const std::string& why) {
            throw std::invalid_argument("line " + std::to_string(number) + ": " + why + ": " + std::string(raw));
        };
        if (raw.front() == ' ' || raw.front() == '\t') fail("nested or indented entry");
        const auto colon = line.find(": ");
        if (colon == std::string_view::npos) fail("not key: value");
        const auto key = std::string(detail::trim_blanks(line.substr(0, colon)));
        auto value = detail::trim_blanks(line.substr(colon + 2));
        if (!value.empty() && (value.front() == '"' || value.front() == '\'')) {
            const auto close = value.find(value.front(), 1);
            if (close == std::string_view::npos) fail("unterminated quote");
            value = value.substr(1, close - 1);
        } else if (const auto hash = value.find(" #"); hash != std::string_view::npos) {
            value = detail::trim_blanks(value.substr(0, hash));
        }
        if (key.empty() || value.empty()) fail("empty key or value");
        if (value.front() == '[' || value.front() == '{' || value.front() == '-') fail("not a scalar value");
        if (!out.emplace(key, std::string(value)).second) fail("key given twice");
    });
    return out;
}

}  // namespace rosterrig::engine

#endif
