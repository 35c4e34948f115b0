// rosterrig/prediction/verdict.hpp: the three outcomes of a prediction.
#ifndef ROSTERRIG_PREDICTION_VERDICT_HPP
#define ROSTERRIG_PREDICTION_VERDICT_HPP

#include <string_view>

namespace rosterrig {

/// Computed by code from a check result, never typed by hand. inconclusive
/// is a full outcome (not enough evidence, or a run that failed), not an error.
enum class verdict_kind { held, refuted, inconclusive };

inline constexpr std::string_view to_string(verdict_kind v) noexcept {
    switch (v) {
        case verdict_kind::held:
            return "held";
        case verdict_kind::refuted:
            return "refuted";
        case verdict_kind::inconclusive:
            return "inconclusive";
    }
    return "inconclusive";
}

/// Merge for several checks: refuted > inconclusive > held (Jepsen's merge-valid).
inline constexpr verdict_kind merge(verdict_kind a, verdict_kind b) noexcept {
    if (a == verdict_kind::refuted || b == verdict_kind::refuted) return verdict_kind::refuted;
    if (a == verdict_kind::inconclusive || b == verdict_kind::inconclusive) return verdict_kind::inconclusive;
    return verdict_kind::held;
}

}  // namespace rosterrig

#endif
