// rosterrig/report/markdown_table.hpp: a GitHub-flavoured markdown table.
//
//   markdown_table t{{"a", "b"}};
//   t.row({"1", "2"});
//   t.render() == "| a | b |\n|---|---|\n| 1 | 2 |\n"
//
// The layout is the one the README's result sections already use (no column
// padding, so a changed figure changes one line of the diff). Cells are
// escaped so a cell can never move text into another column: '|' becomes
// "\|" (GitHub honours that even inside `code`), and a line break, which
// would end the table, becomes a space.
#ifndef ROSTERRIG_REPORT_MARKDOWN_TABLE_HPP
#define ROSTERRIG_REPORT_MARKDOWN_TABLE_HPP

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace rosterrig::report {

/// One cell's text made safe for a table row.
inline std::string markdown_cell(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '|')
            out += "\\|";
        else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
            continue;  // CRLF: one space
        else if (c == '\n' || c == '\r')
            out += ' ';
        else
            out += c;
    }
    return out;
}

class markdown_table {
public:
    /// Throws std::invalid_argument for no columns: GitHub would not render it.
    explicit markdown_table(std::vector<std::string> header) : header_(std::move(header)) {
        if (header_.empty()) throw std::invalid_argument("markdown_table: a table needs at least one column");
    }

    /// Appends a row. A row with more or fewer cells than the header throws
    /// std::invalid_argument: GitHub would silently pad or drop cells, and
    /// the figures would sit under the wrong headings.
    markdown_table& row(std::vector<std::string> cells) {
        if (cells.size() != header_.size())
            throw std::invalid_argument(fmt::format("markdown_table: row {} has {} cells, the header has {}",
                                                    rows_.size() + 1, cells.size(), header_.size()));
        rows_.push_back(std::move(cells));
        return *this;
    }

    std::size_t columns() const noexcept { return header_.size(); }
    std::size_t rows() const noexcept { return rows_.size(); }

    /// Header line, separator line, one line per row; every line ends "\n".
    std::string render() const {
        std::string out = line(header_);
        out += "|";
        for (std::size_t i = 0; i < header_.size(); ++i) out += "---|";
        out += "\n";
        for (const auto& r : rows_) out += line(r);
        return out;
    }

private:
    static std::string line(const std::vector<std::string>& cells) {
        std::string out = "|";
        for (const auto& c : cells) {
            out += ' ';
            out += markdown_cell(c);
            out += " |";
        }
        out += '\n';
        return out;
    }

    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace rosterrig::report

#endif
