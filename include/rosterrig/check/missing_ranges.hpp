// rosterrig/check/missing_ranges.hpp: absent ids as closed intervals.
#ifndef ROSTERRIG_CHECK_MISSING_RANGES_HPP
#define ROSTERRIG_CHECK_MISSING_RANGES_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace rosterrig {

/// A closed range [first, last] of sequence numbers.
struct seq_range {
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    std::uint64_t size() const noexcept { return last - first + 1; }
    friend bool operator==(const seq_range&, const seq_range&) = default;
};

/// The runs of i in 1..n for which present(i) is false, in ascending order,
/// as closed ranges; a run reaching n ends at n.
template <class Present>
std::vector<seq_range> missing_ranges(std::uint64_t n, Present present) {
    std::vector<seq_range> runs;
    std::uint64_t open = 0;  // first id of the current run, 0 = none
    for (std::uint64_t i = 1; i <= n; ++i) {
        if (!present(i)) {
            if (open == 0) open = i;
        } else if (open != 0) {
            runs.push_back({open, i - 1});
            open = 0;
        }
    }
    if (open != 0) runs.push_back({open, n});
    return runs;
}

/// "1-3,7,9-12": the compact text form (Jepsen's integer-interval-set-str).
inline std::string to_string(const std::vector<seq_range>& runs) {
    std::string s;
    for (const auto& r : runs) {
        if (!s.empty()) s.push_back(',');
        s += std::to_string(r.first);
        if (r.last != r.first) s += "-" + std::to_string(r.last);
    }
    return s;
}

}  // namespace rosterrig

#endif
