// rosterrig/report/line_plot.hpp: an SVG line plot a reader can read at a glance.
//
//   line_plot p;
//   p.title = "E2: the table freezes after the restore";
//   p.x_label = "seconds since the restore request";
//   p.y_label = "records in the table";
//   p.y2_label = "newest checkpoint id";
//   p.add_series({"append", rows});                          // solid, left axis
//   p.add_series({"append: checkpoint", ids, axis::right, true});  // dashed
//   p.add_reference({orientation::horizontal, axis::right, 19, "table watermark 19"});
//   p.add_reference({orientation::vertical, axis::left, 31.5, "freeze end"});
//   std::string svg = p.render();
//
// What makes it readable: every axis starts at 0 (or lower, for negative
// data) so heights compare honestly; ticks are round numbers (nice_ticks)
// labelled like the README's figures (tick_label); a light grid; reference
// lines with their own labels for the values the text talks about; a legend.
// Each axis covers its series and its reference lines, so nothing is drawn
// outside the frame.
//
// The report's --check compares bytes, so the output depends only on the
// inputs: coordinates are printed with one decimal through
// number_format.hpp's locale-free fixed(), colours come from a fixed palette
// in series order, and there are no generated ids. Missing data still gives a
// valid, empty frame: no series, empty series and non-finite points are
// allowed (a non-finite point breaks the line).
#ifndef ROSTERRIG_REPORT_LINE_PLOT_HPP
#define ROSTERRIG_REPORT_LINE_PLOT_HPP

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rosterrig/report/number_format.hpp"

namespace rosterrig::report {

enum class axis { left, right };
enum class orientation { horizontal, vertical };

/// One line. points are (x, y) in data units, drawn in the given order.
struct series {
    std::string label;
    std::vector<std::pair<double, double>> points;
    axis y_axis = axis::left;
    bool dashed = false;
};

/// A labelled line at a value: horizontal at y = value on y_axis, or
/// vertical at x = value (y_axis is then ignored).
struct reference_line {
    orientation direction = orientation::horizontal;
    axis y_axis = axis::left;
    double value = 0;
    std::string label;
};

/// Series colours, in series order (Tableau 10 without its grey, which is
/// kept for reference lines; the first four are the ones the report used).
inline constexpr std::array<std::string_view, 9> palette = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                                            "#8c564b", "#e377c2", "#bcbd22", "#17becf"};

namespace detail {

// 10^e by repeated multiplication: exact up to 10^22, so tick values such as
// 7 * 10^3 or 3 / 10 are the correctly rounded decimals.
inline double power_of_ten(int e) {
    double p = 1;
    for (int i = 0; i < std::abs(e); ++i) p *= 10;
    return p;
}

inline std::string xml_escape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

// Legend layout needs a text width without a font engine: an average
// sans-serif glyph at 11 px is about 6.2 px; UTF-8 continuation bytes do not count.
inline double text_width(std::string_view s) {
    double glyphs = 0;
    for (unsigned char c : s)
        if ((c & 0xC0) != 0x80) ++glyphs;
    return glyphs * 6.2;
}

}  // namespace detail

/// Round tick values covering [lo, hi]: equally spaced by a step of 1, 2,
/// 2.5 or 5 times a power of ten, the first at or below lo, the last at or
/// above hi, always 4 to 8 of them (target is clamped to 4..8). Among the
/// steps that allow, the one with the least
///     |ticks - target| + 6 * (unused part of the axis / data span)
/// wins: the count matters, but not so much that the data fills only 3/4 of
/// the axis (-3..54 gets -10..60 by 10, not -20..60 by 20). lo > hi is
/// swapped; lo == hi is widened to include 0, and [0, 0] to [0, 1]. Throws
/// std::invalid_argument for a non-finite bound.
inline std::vector<double> nice_ticks(double lo, double hi, int target = 5) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) throw std::invalid_argument("nice_ticks: non-finite bound");
    target = std::clamp(target, 4, 8);
    if (lo > hi) std::swap(lo, hi);
    if (lo == hi) {
        lo = std::min(lo, 0.0);
        hi = std::max(hi, 0.0);
        if (lo == hi) hi = 1;
    }
    if (!std::isfinite(hi - lo)) return {lo, hi};  // a span beyond DBL_MAX has no round step
    const int e0 = static_cast<int>(std::floor(std::log10((hi - lo) / (target - 1))));
    struct candidate {
        double first = 0, last = 0, mantissa = 0;
        int exponent = 0;
        bool in_range = false;
        double score = 0, cover = 0;
    };
    candidate best;
    bool have = false;
    for (int e = e0 - 1; e <= e0 + 1; ++e) {
        for (double m : {1.0, 2.0, 2.5, 5.0}) {
            const double step = e >= 0 ? m * detail::power_of_ten(e) : m / detail::power_of_ten(-e);
            if (!(step > 0) || !std::isfinite(step)) continue;
            // The 1e-9 absorbs quotients like 0.3 / 0.1 = 2.9999999999999996.
            const double first = std::floor(lo / step + 1e-9), last = std::ceil(hi / step - 1e-9);
            const double n = last - first + 1;
            if (!(n >= 2) || n > 1000) continue;
            const double cover = (last - first) * step;
            candidate c{
                first, last, m, e, n >= 4 && n <= 8, std::fabs(n - target) + 6 * (cover - (hi - lo)) / (hi - lo),
                cover};
            const bool better = !have || (c.in_range != best.in_range ? c.in_range
                                          : c.score != best.score     ? c.score < best.score
                                                                      : c.cover < best.cover);
            if (better) best = c, have = true;
        }
    }
    if (!have) return {lo, hi};  // spans too small or large for doubles to step through
    std::vector<double> ticks;
    for (double k = best.first; k <= best.last; ++k)
        ticks.push_back(best.exponent >= 0 ? k * best.mantissa * detail::power_of_ten(best.exponent)
                                           : k * best.mantissa / detail::power_of_ten(-best.exponent));
    return ticks;
}

/// A tick value as the README prints numbers: the shortest exact decimal
/// (20, 2.5, 0.25; never "20.0" or "-0"), with thousands separators from
/// 10,000 up (4000 stays 4000: a four-digit number reads fine bare, and the
/// axis of the old e2 figure is where "11999" made this worth fixing).
inline std::string tick_label(double v) {
    if (!std::isfinite(v)) return fixed(v, 0);
    char buf[400];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    std::string s = ec == std::errc{} ? std::string(buf, end) : fixed(v, 6);
    if (s == "-0") s = "0";
    if (std::fabs(v) < 10000) return s;
    const std::size_t sign = s[0] == '-' ? 1 : 0, point = std::min(s.find('.'), s.size());
    std::string out = s.substr(0, sign);
    out += detail::group_thousands(std::string_view(s).substr(sign, point - sign));
    out += std::string_view(s).substr(point);
    return out;
}

class line_plot {
public:
    std::string title, x_label, y_label, y2_label;
    int width = 760, height = 400;

    void add_series(series s) { series_.push_back(std::move(s)); }
    void add_reference(reference_line r) { references_.push_back(std::move(r)); }
    const std::vector<series>& all_series() const noexcept { return series_; }
    const std::vector<reference_line>& references() const noexcept { return references_; }

    /// The whole SVG document, ending in "\n".
    std::string render() const {
        const double W = std::max(width, 200), H = std::max(height, 150);
        const bool has_right = !y2_label.empty() || std::any_of(series_.begin(), series_.end(), [](const series& s) {
            return s.y_axis == axis::right;
        }) || std::any_of(references_.begin(), references_.end(), [](const reference_line& r) {
            return r.direction == orientation::horizontal && r.y_axis == axis::right;
        });

        // Scales: each axis covers 0, its data and its reference lines.
        const auto xt = nice_ticks(range_min(&x_of_point, orientation::vertical, std::nullopt),
                                   range_max(&x_of_point, orientation::vertical, std::nullopt), 6);
        const auto lt = nice_ticks(range_min(&y_of_point, orientation::horizontal, axis::left),
                                   range_max(&y_of_point, orientation::horizontal, axis::left), 5);
        const auto rt = nice_ticks(range_min(&y_of_point, orientation::horizontal, axis::right),
                                   range_max(&y_of_point, orientation::horizontal, axis::right), 5);

        // Legend entries flow left to right under the x label, wrapping.
        struct entry {
            double x, y;
        };
        std::vector<entry> legend;
        const double left = 70, right = has_right ? 70 : 24, top = title.empty() ? 16 : 40;
        double lx = left, row = 0;
        for (const auto& s : series_) {
            const double w = 26 + detail::text_width(s.label) + 18;
            if (lx > left && lx + w > W - 10) lx = left, ++row;
            legend.push_back({lx, row});
            lx += w;
        }
        const double legend_rows = series_.empty() ? 0 : row + 1;
        const double bottom = 44 + 16 * legend_rows + 8;
        const double x0 = left, x1 = std::max(W - right, x0 + 1), y0 = top, y1 = std::max(H - bottom, y0 + 1);

        const auto X = [&](double v) { return x0 + (x1 - x0) * (v - xt.front()) / (xt.back() - xt.front()); };
        const auto Y = [&](double v, axis a) {
            const auto& t = a == axis::left ? lt : rt;
            return y1 - (y1 - y0) * (v - t.front()) / (t.back() - t.front());
        };
        const auto c = [](double v) { return fixed(v, 1); };

        std::string o;
        const auto put = [&o](const auto&... parts) { (o.append(std::string_view(parts)), ...); };
        const std::string w = std::to_string(static_cast<int>(W)), h = std::to_string(static_cast<int>(H));
        put("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", w, "\" height=\"", h, "\" viewBox=\"0 0 ", w, " ", h,
            "\" font-family=\"sans-serif\" font-size=\"11\">\n");
        if (!title.empty()) put("<title>", detail::xml_escape(title), "</title>\n");
        put("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        if (!title.empty())
            put("<text x=\"", c(W / 2), "\" y=\"", c(24),
                "\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">", detail::xml_escape(title),
                "</text>\n");

        // Grid and ticks.
        const auto line = [&](std::string_view cls, double ax, double ay, double bx, double by, std::string_view style,
                              std::string_view style2 = {}) {
            put("<line class=\"", cls, "\" x1=\"", c(ax), "\" y1=\"", c(ay), "\" x2=\"", c(bx), "\" y2=\"", c(by),
                "\" ", style, style2, "/>\n");
        };
        const auto text = [&](std::string_view cls, double x, double y, std::string_view anchor, std::string_view body,
                              std::string_view extra = {}) {
            put("<text class=\"", cls, "\" x=\"", c(x), "\" y=\"", c(y), "\" text-anchor=\"", anchor, "\"",
                extra.empty() ? "" : " ", extra, ">", detail::xml_escape(body), "</text>\n");
        };
        constexpr std::string_view grid = "stroke=\"#e6e6e6\"", ink = "stroke=\"black\"";
        for (double v : xt) line("grid", X(v), y0, X(v), y1, grid);
        for (double v : lt) line("grid", x0, Y(v, axis::left), x1, Y(v, axis::left), grid);
        line("axis", x0, y1, x1, y1, ink);
        line("axis", x0, y0, x0, y1, ink);
        if (has_right) line("axis", x1, y0, x1, y1, ink);
        for (double v : xt) {
            line("tick-x", X(v), y1, X(v), y1 + 4, ink);
            text("tick-x", X(v), y1 + 16, "middle", tick_label(v));
        }
        for (double v : lt) {
            line("tick-left", x0 - 4, Y(v, axis::left), x0, Y(v, axis::left), ink);
            text("tick-left", x0 - 7, Y(v, axis::left) + 4, "end", tick_label(v));
        }
        if (has_right)
            for (double v : rt) {
                line("tick-right", x1, Y(v, axis::right), x1 + 4, Y(v, axis::right), ink);
                text("tick-right", x1 + 7, Y(v, axis::right) + 4, "start", tick_label(v));
            }
        const double mid_y = (y0 + y1) / 2;
        if (!x_label.empty()) text("x-label", (x0 + x1) / 2, y1 + 34, "middle", x_label);
        if (!y_label.empty()) {
            std::string rotate = "transform=\"rotate(-90 ";
            rotate.append(c(16)).append(" ").append(c(mid_y)).append(")\"");
            text("y-label", 16, mid_y, "middle", y_label, rotate);
        }
        if (!y2_label.empty()) {
            std::string rotate = "transform=\"rotate(90 ";
            rotate.append(c(W - 14)).append(" ").append(c(mid_y)).append(")\"");
            text("y2-label", W - 14, mid_y, "middle", y2_label, rotate);
        }

        // Series, in order; a non-finite point ends one stroke and the next starts another.
        constexpr std::string_view dash = " stroke-dasharray=\"6,4\"";
        for (std::size_t i = 0; i < series_.size(); ++i) {
            const auto& s = series_[i];
            const std::string_view colour = palette[i % palette.size()];
            std::string d;
            bool pen_down = false;
            std::size_t drawn = 0;
            for (const auto& [x, y] : s.points) {
                if (!std::isfinite(x) || !std::isfinite(y)) {
                    pen_down = false;
                    continue;
                }
                if (!d.empty()) d += ' ';
                d.append(pen_down ? "L" : "M").append(c(X(x))).append(",").append(c(Y(y, s.y_axis)));
                pen_down = true;
                ++drawn;
            }
            if (drawn == 1)  // one point draws no line; show it as a dot
                for (const auto& [x, y] : s.points)
                    if (std::isfinite(x) && std::isfinite(y))
                        put("<circle class=\"series\" cx=\"", c(X(x)), "\" cy=\"", c(Y(y, s.y_axis)),
                            "\" r=\"3\" fill=\"", colour, "\"/>\n");
            if (drawn > 1)
                put("<path class=\"series\" d=\"", d, "\" fill=\"none\" stroke=\"", colour, "\" stroke-width=\"2\"",
                    s.dashed ? dash : "", "/>\n");
        }

        // Reference lines over the data, labelled at their ends.
        constexpr std::string_view ref_style = "stroke=\"#555555\" stroke-dasharray=\"2,3\"",
                                   ref_ink = "fill=\"#555555\"";
        for (const auto& r : references_) {
            if (!std::isfinite(r.value)) continue;
            if (r.direction == orientation::horizontal) {
                const double y = Y(r.value, r.y_axis);
                line("reference", x0, y, x1, y, ref_style);
                if (!r.label.empty()) text("reference", x1 - 4, y - 4, "end", r.label, ref_ink);
            } else {
                const double x = X(r.value);
                line("reference", x, y0, x, y1, ref_style);
                const bool near_right = x > x0 + 0.75 * (x1 - x0);
                if (!r.label.empty())
                    text("reference", near_right ? x - 4 : x + 4, y0 + 12, near_right ? "end" : "start", r.label,
                         ref_ink);
            }
        }

        // Legend: a stroke sample in the series' colour and dash, then its label.
        for (std::size_t i = 0; i < series_.size(); ++i) {
            const double x = legend[i].x, y = y1 + 54 + 16 * legend[i].y;
            std::string stroke = "stroke=\"";
            stroke.append(palette[i % palette.size()]).append("\" stroke-width=\"2\"");
            line("legend", x, y - 4, x + 20, y - 4, stroke, series_[i].dashed ? dash : "");
            text("legend", x + 26, y, "start", series_[i].label);
        }
        o += "</svg>\n";
        return o;
    }

private:
    static double x_of_point(const std::pair<double, double>& p) { return p.first; }
    static double y_of_point(const std::pair<double, double>& p) { return p.second; }

    // The span an axis must show: 0, every finite coordinate of the series on
    // it (any series, for x) and the reference lines across it.
    template <bool Max>
    double extreme(double (*coordinate)(const std::pair<double, double>&), orientation across,
                   std::optional<axis> on) const {
        double v = 0;
        const auto take = [&](double u) {
            if (std::isfinite(u)) v = Max ? std::max(v, u) : std::min(v, u);
        };
        for (const auto& s : series_)
            if (!on || s.y_axis == *on)
                for (const auto& p : s.points)
                    if (std::isfinite(p.first) && std::isfinite(p.second)) take(coordinate(p));
        for (const auto& r : references_)
            if (r.direction == across && (!on || r.y_axis == *on)) take(r.value);
        return v;
    }
    double range_min(double (*f)(const std::pair<double, double>&), orientation o, std::optional<axis> a) const {
        return extreme<false>(f, o, a);
    }
    double range_max(double (*f)(const std::pair<double, double>&), orientation o, std::optional<axis> a) const {
        return extreme<true>(f, o, a);
    }

    std::vector<series> series_;
    std::vector<reference_line> references_;
};

}  // namespace rosterrig::report

#endif
