// rosterrig/stats/binomial_bounds.hpp: how much k events in n trials say.
//
// The one-sided Clopper–Pearson ("exact") upper bound on a per-trial
// probability p at confidence c: the p for which observing k or fewer events
// in n trials has probability 1 - c, i.e. the c-quantile of Beta(k+1, n-k).
// For k = 0 it has the closed form 1 - (1-c)^(1/n): n = 1 gives 0.95,
// n = 30 gives 0.0950, n = 100 gives 0.0295 at c = 0.95.
//
// The regularized incomplete beta I_x(a,b) is evaluated with the Lentz
// continued fraction (Numerical Recipes §6.4), using the symmetry
// I_x(a,b) = 1 - I_{1-x}(b,a) where the fraction converges slowly; its
// inverse by bisection, which is monotone and needs no derivative.
#ifndef ROSTERRIG_STATS_BINOMIAL_BOUNDS_HPP
#define ROSTERRIG_STATS_BINOMIAL_BOUNDS_HPP

#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace rosterrig::stats {

namespace detail {
inline double beta_continued_fraction(double a, double b, double x) {
    constexpr double tiny = 1e-300;
    constexpr double epsilon = 1e-16;
    const double qab = a + b, qap = a + 1.0, qam = a - 1.0;
    double c = 1.0;
    double d = 1.0 - qab * x / qap;
    if (std::fabs(d) < tiny) d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 10000; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if (std::fabs(d) < tiny) d = tiny;
        c = 1.0 + aa / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if (std::fabs(d) < tiny) d = tiny;
        c = 1.0 + aa / c;
        if (std::fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        const double delta = d * c;
        h *= delta;
        if (std::fabs(delta - 1.0) < epsilon) return h;
    }
    return h;  // converged to double precision long before for our a, b
}
}  // namespace detail

/// I_x(a, b), the regularized incomplete beta function, for a, b > 0, x in [0,1].
inline double regularized_incomplete_beta(double a, double b, double x) {
    if (!(a > 0.0) || !(b > 0.0)) throw std::domain_error("regularized_incomplete_beta: a and b must be > 0");
    if (!(x >= 0.0 && x <= 1.0)) throw std::domain_error("regularized_incomplete_beta: x must be in [0, 1]");
    if (x == 0.0 || x == 1.0) return x;
    const double log_front =
        std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
    const double front = std::exp(log_front);
    if (x < (a + 1.0) / (a + b + 2.0)) return front * detail::beta_continued_fraction(a, b, x) / a;
    return 1.0 - front * detail::beta_continued_fraction(b, a, 1.0 - x) / b;
}

/// The x with I_x(a, b) = p (the p-quantile of Beta(a, b)), to ~1e-15.
inline double inverse_regularized_incomplete_beta(double a, double b, double p) {
    if (!(p >= 0.0 && p <= 1.0)) throw std::domain_error("inverse_regularized_incomplete_beta: p must be in [0, 1]");
    if (p == 0.0) return 0.0;
    if (p == 1.0) return 1.0;
    double low = 0.0, high = 1.0;
    for (int i = 0; i < 200 && high - low > 1e-16; ++i) {
        const double mid = 0.5 * (low + high);
        if (regularized_incomplete_beta(a, b, mid) < p)
            low = mid;
        else
            high = mid;
    }
    return 0.5 * (low + high);
}

/// One-sided upper confidence bound on p from k events in n trials.
/// k == n gives 1; n == 0 throws (no trials say nothing).
inline double clopper_pearson_upper(std::uint64_t k, std::uint64_t n, double confidence = 0.95) {
    if (n == 0) throw std::domain_error("clopper_pearson_upper: n must be > 0");
    if (k > n) throw std::domain_error("clopper_pearson_upper: k must be <= n");
    if (!(confidence > 0.0 && confidence < 1.0))
        throw std::domain_error("clopper_pearson_upper: confidence must be in (0, 1)");
    if (k == n) return 1.0;
    if (k == 0) return 1.0 - std::pow(1.0 - confidence, 1.0 / static_cast<double>(n));
    return inverse_regularized_incomplete_beta(static_cast<double>(k + 1), static_cast<double>(n - k), confidence);
}

/// One-sided lower bound (the (1-c)-quantile of Beta(k, n-k+1)); k == 0 gives 0.
inline double clopper_pearson_lower(std::uint64_t k, std::uint64_t n, double confidence = 0.95) {
    if (n == 0) throw std::domain_error("clopper_pearson_lower: n must be > 0");
    if (k > n) throw std::domain_error("clopper_pearson_lower: k must be <= n");
    if (k == 0) return 0.0;
    if (k == n) return std::pow(1.0 - confidence, 1.0 / static_cast<double>(n));
    return inverse_regularized_incomplete_beta(static_cast<double>(k), static_cast<double>(n - k + 1),
                                               1.0 - confidence);
}

}  // namespace rosterrig::stats

#endif
