// What a claim compared. A claim is a function that answers true or false;
// when it answers false on the shipped samples, Catch2 can print only
// `false`. A claim that makes its comparisons through these functions names
// the one that failed and its operands instead ("sinkv2 duplicate rows ==
// excess records: 3 vs 2"), and the claim test prints it
// (holds_and_is_mutation_checked). They return the comparison's value, so a
// claim reads as before: `if (!eq("rows", r.rows, n)) return false;`.
#ifndef ROSTERRIG_TEST_CLAIMS_COMPARED_HPP
#define ROSTERRIG_TEST_CLAIMS_COMPARED_HPP
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace rosterrig::claims_test {

// The last comparison that failed since clear(); one per thread, as the claim
// runs on the thread of its test.
class comparison_log {
public:
    static comparison_log& current() {
        static thread_local comparison_log log;
        return log;
    }
    void clear() { failed_.clear(); }
    void failed(std::string what) { failed_ = std::move(what); }
    // What the test prints when its claim failed on the shipped samples.
    std::string text() const {
        return failed_.empty() ? std::string("the claim answered false without a named comparison failing")
                               : "the claim's comparison that failed: " + failed_;
    }

private:
    std::string failed_;
};

namespace detail {
template <class T>
constexpr bool is_optional = false;
template <class T>
constexpr bool is_optional<std::optional<T>> = true;

// A number as a reader writes it (Catch2 adds the hexadecimal above 255); an
// optional as its value, or "absent" (Catch2 prints it as {?}).
template <class T>
std::string text_of(const T& x) {
    if constexpr (is_optional<T>)
        return x ? text_of(*x) : std::string("absent");
    else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
        return std::to_string(x);
    else
        return Catch::Detail::stringify(x);
}
template <class A, class B>
bool noted(bool holds, std::string_view what, std::string_view op, const A& a, const B& b) {
    if (!holds)
        comparison_log::current().failed(std::string(what) + ": " + text_of(a) + " " + std::string(op) + " " +
                                         text_of(b) + " is false");
    return holds;
}
}  // namespace detail

// Integers of mixed signedness compare by value (std::cmp_*), as a reader of
// the claim means them.
template <class A, class B>
constexpr bool both_integers =
    std::is_integral_v<A> && std::is_integral_v<B> && !std::is_same_v<A, bool> && !std::is_same_v<B, bool>;

template <class A, class B>
bool eq(std::string_view what, const A& a, const B& b) {
    if constexpr (both_integers<A, B>)
        return detail::noted(std::cmp_equal(a, b), what, "==", a, b);
    else
        return detail::noted(a == b, what, "==", a, b);
}
template <class A, class B>
bool ne(std::string_view what, const A& a, const B& b) {
    if constexpr (both_integers<A, B>)
        return detail::noted(std::cmp_not_equal(a, b), what, "!=", a, b);
    else
        return detail::noted(a != b, what, "!=", a, b);
}
template <class A, class B>
bool ge(std::string_view what, const A& a, const B& b) {
    if constexpr (both_integers<A, B>)
        return detail::noted(std::cmp_greater_equal(a, b), what, ">=", a, b);
    else
        return detail::noted(a >= b, what, ">=", a, b);
}
template <class A, class B>
bool le(std::string_view what, const A& a, const B& b) {
    if constexpr (both_integers<A, B>)
        return detail::noted(std::cmp_less_equal(a, b), what, "<=", a, b);
    else
        return detail::noted(a <= b, what, "<=", a, b);
}
template <class A, class B>
bool gt(std::string_view what, const A& a, const B& b) {
    if constexpr (both_integers<A, B>)
        return detail::noted(std::cmp_greater(a, b), what, ">", a, b);
    else
        return detail::noted(a > b, what, ">", a, b);
}
template <class A, class B>
bool lt(std::string_view what, const A& a, const B& b) {
    if constexpr (both_integers<A, B>)
        return detail::noted(std::cmp_less(a, b), what, "<", a, b);
    else
        return detail::noted(a < b, what, "<", a, b);
}
// A condition with no operands worth printing (a name found, a flag set).
inline bool that(std::string_view what, bool holds) {
    if (!holds) comparison_log::current().failed(std::string(what) + " is false");
    return holds;
}

}  // namespace rosterrig::claims_test

#endif
