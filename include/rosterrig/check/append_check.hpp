// rosterrig/check/append_check.hpp: duplicates and missing runs in an
// append table. Streaming; memory: one 32-bit counter per expected seq.
#ifndef ROSTERRIG_CHECK_APPEND_CHECK_HPP
#define ROSTERRIG_CHECK_APPEND_CHECK_HPP

#include <cstdint>
#include <vector>

#include "rosterrig/check/missing_ranges.hpp"

namespace rosterrig {

struct seq_copies {
    std::uint64_t seq = 0;
    std::uint64_t copies = 0;  ///< >= 2
    friend bool operator==(const seq_copies&, const seq_copies&) = default;
};

struct append_result {
    std::uint64_t rows = 0;                       ///< rows observed
    std::uint64_t distinct_seq = 0;               ///< distinct seq in 1..N observed
    std::uint64_t duplicate_rows = 0;             ///< extra rows: a seq present k times adds k-1
    std::vector<seq_copies> duplicates;           ///< every seq present more than once, ascending
    std::uint64_t missing_seq = 0;                ///< seq in 1..N never observed
    std::vector<seq_range> missing_runs;          ///< those, as closed ranges, ascending
    std::uint64_t out_of_range_rows = 0;          ///< rows whose seq is outside 1..N
    std::vector<std::uint64_t> out_of_range_seq;  ///< first out_of_range_cap of them, in arrival order
    static constexpr std::size_t out_of_range_cap = 1000;

    /// The table holds every seq exactly once and nothing else.
    bool matches() const noexcept { return duplicate_rows == 0 && missing_seq == 0 && out_of_range_rows == 0; }
};

class append_checker {
public:
    explicit append_checker(std::uint64_t events) : counts_(static_cast<std::size_t>(events) + 1, 0) {}

    void observe(std::uint64_t seq) {
        ++rows_;
        if (seq == 0 || seq >= counts_.size()) {
            ++out_of_range_rows_;
            if (out_of_range_seq_.size() < append_result::out_of_range_cap) out_of_range_seq_.push_back(seq);
            return;
        }
        std::uint32_t& c = counts_[static_cast<std::size_t>(seq)];
        if (c != UINT32_MAX) ++c;
    }

    append_result finish() const {
        append_result r;
        r.rows = rows_;
        r.out_of_range_rows = out_of_range_rows_;
        r.out_of_range_seq = out_of_range_seq_;
        const std::uint64_t n = counts_.size() - 1;
        for (std::uint64_t s = 1; s <= n; ++s) {
            const std::uint32_t c = counts_[static_cast<std::size_t>(s)];
            if (c == 0) {
                ++r.missing_seq;
                continue;
            }
            ++r.distinct_seq;
            if (c > 1) {
                r.duplicate_rows += c - 1;
                r.duplicates.push_back({s, c});
            }
        }
        r.missing_runs = missing_ranges(n, [&](std::uint64_t s) { return counts_[static_cast<std::size_t>(s)] != 0; });
        return r;
    }

private:
    std::vector<std::uint32_t> counts_;
    std::uint64_t rows_ = 0;
    std::uint64_t out_of_range_rows_ = 0;
    std::vector<std::uint64_t> out_of_range_seq_;
};

/// Checks a whole range of seq values (or of anything with a .seq).
template <class Range>
append_result check_append(std::uint64_t events, const Range& seqs) {
    append_checker c{events};
    for (const auto& s : seqs) {
        if constexpr (requires { s.seq; })
            c.observe(s.seq);
        else
            c.observe(s);
    }
    return c.finish();
}

}  // namespace rosterrig

#endif
