// Claims about rosterrig/report: the pieces the README's result sections and
// figures are written with. "Mutation:" names a one-line change to the header
// that makes the test fail (each was made and seen to fail, then reverted).
#include <catch2/catch.hpp>

#include <climits>
#include <cmath>
#include <iomanip>
#include <limits>
#include <locale>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "rosterrig/report/findings.hpp"
#include "rosterrig/report/report.hpp"
#include "rosterrig/report/result_section.hpp"

using namespace rosterrig::report;

namespace {

// report.cpp's fmt() and splice() as they were, to hold the replacements to
// the same bytes.
std::string old_fmt(double v, int digits) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(digits) << v;
    return o.str();
}

bool old_splice(std::string& doc, const std::string& name, const std::string& body) {
    const std::string begin = "<!-- BEGIN " + name + " -->", end = "<!-- END " + name + " -->";
    auto b = doc.find(begin), e = doc.find(end);
    if (b == std::string::npos || e == std::string::npos || e < b) return false;
    doc.replace(b + begin.size(), e - b - begin.size(), "\n" + body);
    return true;
}

// A locale whose numbers look like German ones: 1.234,5.
struct comma_decimal : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
    char do_thousands_sep() const override { return '.'; }
    std::string do_grouping() const override { return "\3"; }
};

// Every element of the given tag and class, as attribute maps plus "text" for
// the element's character content.
std::vector<std::map<std::string, std::string>> elements(const std::string& svg, const std::string& tag,
                                                         const std::string& cls) {
    std::vector<std::map<std::string, std::string>> out;
    const std::regex element("<" + tag + " class=\"" + cls + "\"([^>]*?)/?>([^<]*)");
    const std::regex attribute("([a-z0-9-]+)=\"([^\"]*)\"");
    for (std::sregex_iterator it(svg.begin(), svg.end(), element), end; it != end; ++it) {
        std::map<std::string, std::string> attrs;
        const std::string a = (*it)[1];
        for (std::sregex_iterator at(a.begin(), a.end(), attribute); at != end; ++at) attrs[(*at)[1]] = (*at)[2];
        attrs["text"] = (*it)[2];
        out.push_back(attrs);
    }
    return out;
}

double num(const std::map<std::string, std::string>& e, const std::string& key) { return std::stod(e.at(key)); }

// The y of the tick mark labelled `label` on one axis ("tick-left", "tick-right", "tick-x": x).
double tick_position(const std::string& svg, const std::string& cls, const std::string& label) {
    const auto labels = elements(svg, "text", cls);
    const auto marks = elements(svg, "line", cls);
    REQUIRE(labels.size() == marks.size());
    for (std::size_t i = 0; i < labels.size(); ++i)
        if (labels[i].at("text") == label) return cls == "tick-x" ? num(marks[i], "x1") : num(marks[i], "y1");
    FAIL("no tick labelled " << label << " on " << cls);
    return 0;
}

std::vector<std::string> tick_labels(const std::string& svg, const std::string& cls) {
    std::vector<std::string> out;
    for (const auto& e : elements(svg, "text", cls)) out.push_back(e.at("text"));
    return out;
}

// The e2 figure's shape: rows in the table (left axis) jump when the table
// moves; the job's checkpoint id (right axis) climbs.
line_plot e2_like_plot() {
    line_plot p;
    p.title = "records & checkpoints";
    p.x_label = "seconds since the restore request";
    p.y_label = "records in the table";
    p.y2_label = "newest checkpoint id";
    std::vector<std::pair<double, double>> rows, ids;
    for (int i = 0; i <= 108; ++i) {
        const double t = i * 0.5;
        rows.push_back({t, t < 45.5 ? 12000 : 20000});
        if (t >= 5) ids.push_back({t, std::floor(2 + (t - 5) / 1.75)});
    }
    p.add_series({"rows", rows});
    p.add_series({"checkpoint id", ids, axis::right, true});
    p.add_reference({orientation::horizontal, axis::right, 19, "table watermark 19"});
    p.add_reference({orientation::vertical, axis::left, 45.5, "freeze end"});
    return p;
}

}  // namespace

// --- number_format ---------------------------------------------------------

// Mutation: in detail::group_thousands, `% 3 == 0` -> `% 4 == 0` fails here.
TEST_CASE("report: integers are grouped by thousands with commas, signs kept", "[report]") {
    CHECK(with_thousands(0) == "0");
    CHECK(with_thousands(999) == "999");
    CHECK(with_thousands(1000) == "1,000");
    CHECK(with_thousands(12000) == "12,000");
    CHECK(with_thousands(-1234) == "-1,234");
    CHECK(with_thousands(-999) == "-999");
    CHECK(with_thousands(1234567) == "1,234,567");
    CHECK(with_thousands(LLONG_MAX) == "9,223,372,036,854,775,807");
    CHECK(with_thousands(LLONG_MIN) == "-9,223,372,036,854,775,808");
}

TEST_CASE("report: fixed prints what the report's iostream formatting printed", "[report]") {
    for (double v : {0.0, 0.09503, 0.0950340, 1.0, 2.5, 3.5, 11.549, 12000.0, 0.125, 1e6 / 3, 54.25})
        for (int digits : {0, 1, 2, 4}) CHECK(fixed(v, digits) == old_fmt(v, digits));
    CHECK(fixed(0.09503, 4) == "0.0950");
    CHECK(seconds_from_ms(11500) == "11.5 s");
    CHECK(seconds_from_ms(11549, 2) == "11.55 s");
    CHECK(seconds_from_ms(0) == "0.0 s");
}

// Mutation: delete the `s.erase(0, 1)` line in fixed() fails here.
TEST_CASE("report: a figure that rounds to zero prints without a minus sign", "[report]") {
    CHECK(fixed(-0.04, 1) == "0.0");
    CHECK(fixed(-0.0, 0) == "0");
    CHECK(seconds_from_ms(-20) == "0.0 s");
    CHECK(fixed(-0.06, 1) == "-0.1");
}

// Mutation: replacing fixed()'s to_chars with `std::ostringstream o; o <<
// std::fixed << std::setprecision(digits) << v;` fails here (it writes "2,50").
TEST_CASE("report: number formatting ignores the global locale", "[report]") {
    const std::locale before = std::locale::global(std::locale(std::locale::classic(), new comma_decimal));
    const std::string f = fixed(2.5, 2), s = seconds_from_ms(11500), w = with_thousands(12000), t = tick_label(12500.5);
    std::locale::global(before);
    CHECK(f == "2.50");
    CHECK(s == "11.5 s");
    CHECK(w == "12,000");
    CHECK(t == "12,500.5");
}

// --- markdown_table --------------------------------------------------------

// Mutation: "---|" -> "--- |" in render() fails here.
TEST_CASE("report: a table renders byte for byte as the README's tables do", "[report]") {
    markdown_table t{{"a", "b"}};
    t.row({"1", "2"});
    CHECK(t.render() == "| a | b |\n|---|---|\n| 1 | 2 |\n");

    markdown_table v{{"Prediction", "Verdict", "Why"}};
    v.row({"`e1.upsert-holds-latest`", "held", "every NPI row is the expected latest"}).row({"x", "", "z"});
    CHECK(
        v.render() ==
        "| Prediction | Verdict | Why |\n|---|---|---|\n| `e1.upsert-holds-latest` | held | every NPI row is the expected "
        "latest |\n| x |  | z |\n");
    CHECK(v.columns() == 3);
    CHECK(v.rows() == 2);
    CHECK(markdown_table{{"only"}}.render() == "| only |\n|---|\n");
}

// Mutation: delete the `if (cells.size() != header_.size())` check in row() fails here.
TEST_CASE("report: a row with the wrong number of cells is an error, not a shifted column", "[report]") {
    markdown_table t{{"a", "b"}};
    CHECK_THROWS_AS(t.row({"1"}), std::invalid_argument);
    CHECK_THROWS_AS(t.row({"1", "2", "3"}), std::invalid_argument);
    CHECK_THROWS_WITH(t.row({"1", "2", "3"}), Catch::Contains("3 cells") && Catch::Contains("header has 2"));
    CHECK(t.rows() == 0);
    CHECK_THROWS_AS(markdown_table{std::vector<std::string>{}}, std::invalid_argument);
}

// Mutation: `if (c == '|') out += "\\|";` -> `out += "|"` fails here.
TEST_CASE("report: a cell cannot break out of its column or its row", "[report]") {
    markdown_table t{{"a|b", "c"}};
    t.row({"x | y", "two\nlines"}).row({"crlf\r\nend", "cr\rend"});
    CHECK(t.render() == "| a\\|b | c |\n|---|---|\n| x \\| y | two lines |\n| crlf end | cr end |\n");
}

// --- readme_splice ---------------------------------------------------------

TEST_CASE("report: splicing replaces a section exactly as report.cpp's splice did", "[report]") {
    const std::string docs[] = {
        "# R\n<!-- BEGIN e1 -->\nold\n<!-- END e1 -->\ntail\n",
        "<!-- BEGIN e1 --><!-- END e1 -->",
        "a <!-- BEGIN e2 -->x<!-- END e2 --> <!-- BEGIN e1 -->\n\n| old |\n\n<!-- END e1 -->\n",
    };
    for (const std::string body : {"new\n", "", "| a | b |\n|---|---|\n"}) {
        for (const auto& d : docs) {
            std::string mine = d, theirs = d;
            splice_section(mine, "e1", body);
            REQUIRE(old_splice(theirs, "e1", body));
            CHECK(mine == theirs);
        }
    }
    std::string doc = "x\n<!-- BEGIN e1 -->\nold\n<!-- END e1 -->\ny\n";
    splice_section(doc, "e1", "new\n");
    CHECK(doc == "x\n<!-- BEGIN e1 -->\nnew\n<!-- END e1 -->\ny\n");
    splice_section(doc, "e1", "new\n");  // idempotent: a second run changes nothing
    CHECK(doc == "x\n<!-- BEGIN e1 -->\nnew\n<!-- END e1 -->\ny\n");
}

// Mutation: delete `if (e == std::string::npos) throw missing_section(...)` fails here.
TEST_CASE("report: a missing END marker is an error, not a silent no-op", "[report]") {
    const std::string original = "x\n<!-- BEGIN e2 -->\nold\n";
    std::string doc = original;
    CHECK_THROWS_AS(splice_section(doc, "e2", "new\n"), missing_section);
    CHECK(doc == original);
    try {
        splice_section(doc, "e2", "new\n");
    } catch (const missing_section& e) {
        CHECK(e.section() == "e2");
        const std::string what = e.what();
        CHECK_THAT(what, Catch::Contains("\"e2\"") && Catch::Contains("<!-- BEGIN e2 -->") &&
                             Catch::Contains("<!-- END e2 -->") && Catch::Contains("missing"));
    }
    const std::runtime_error* as_runtime_error = nullptr;
    try {
        splice_section(doc, "e2", "");
    } catch (const std::runtime_error& e) {
        as_runtime_error = &e;
    }
    CHECK(as_runtime_error != nullptr);
}

// Mutation: delete the `if (b == std::string::npos) throw ...` line fails here
// (the order check still throws, but says "comes before", which misleads).
TEST_CASE("report: a missing BEGIN marker, or none at all, is an error that says so", "[report]") {
    std::string only_end = "x\n<!-- END e1 -->\n", none = "no markers here\n";
    CHECK_THROWS_AS(splice_section(only_end, "e1", "b\n"), missing_section);
    CHECK_THROWS_WITH(splice_section(only_end, "e1", "b\n"), Catch::Contains("<!-- BEGIN e1 --> is missing"));
    CHECK_THROWS_WITH(splice_section(none, "e1", "b\n"),
                      Catch::Contains("<!-- BEGIN e1 -->") && Catch::Contains("<!-- END e1 -->"));
    // A section's name is the whole name: e1's markers are not e10's.
    std::string other = "<!-- BEGIN e10 -->\n<!-- END e10 -->\n";
    CHECK_THROWS_AS(splice_section(other, "e1", "b\n"), missing_section);
}

// Mutation: delete the `if (e < b) throw ...` line fails here (the replace
// would then run with a wrapped-around length and truncate the document).
TEST_CASE("report: markers out of order are an error", "[report]") {
    const std::string original = "<!-- END e1 -->\nmiddle\n<!-- BEGIN e1 -->\n";
    std::string doc = original;
    CHECK_THROWS_WITH(splice_section(doc, "e1", "b\n"), Catch::Contains("comes before"));
    CHECK(doc == original);
}

// Mutation: delete the "BEGIN appears twice" line fails here.
TEST_CASE("report: a marker that appears twice is an error, not a splice into the first", "[report]") {
    std::string two_begins = "<!-- BEGIN e1 -->\na\n<!-- END e1 -->\n<!-- BEGIN e1 -->\nb\n";
    std::string two_ends = "<!-- BEGIN e1 -->\na\n<!-- END e1 -->\nb\n<!-- END e1 -->\n";
    CHECK_THROWS_WITH(splice_section(two_begins, "e1", "x\n"), Catch::Contains("<!-- BEGIN e1 --> appears twice"));
    CHECK_THROWS_WITH(splice_section(two_ends, "e1", "x\n"), Catch::Contains("<!-- END e1 --> appears twice"));
}

TEST_CASE("report: a body that carries its own section's marker is refused", "[report]") {
    std::string doc = "<!-- BEGIN e1 -->\n<!-- END e1 -->\n";
    CHECK_THROWS_AS(splice_section(doc, "e1", "x <!-- END e1 -->\n"), std::invalid_argument);
    CHECK_THROWS_AS(splice_section(doc, "", "x\n"), std::invalid_argument);
    CHECK_NOTHROW(splice_section(doc, "e1", "mentions <!-- END e2 --> harmlessly\n"));
}

// Mutation: `names.push_back(...)` -> `names.insert(names.begin(), ...)` fails here.
TEST_CASE("report: section names are the BEGIN markers in document order", "[report]") {
    const std::string doc =
        "# R\n<!-- BEGIN e2 -->\n<!-- END e2 -->\ntext <!-- BEGIN e1 --> <!-- END e1 -->\n"
        "<!-- BEGIN broken\n-->\n<!-- BEGIN  -->\n<!-- BEGIN e3 --><!-- BEGIN e2 -->\n";
    CHECK(section_names(doc) == std::vector<std::string>{"e2", "e1", "e3", "e2"});
    CHECK(section_names("").empty());
    CHECK(section_names("<!-- BEGIN unterminated").empty());
}

// --- nice_ticks / tick_label -------------------------------------------------

// Mutation: drop 2.5 from the mantissas ({1.0, 2.0, 5.0}) fails the 0..10 case;
// `c.score < best.score` -> `c.score > best.score` fails the exact cases.
TEST_CASE("report: ticks are round numbers that cover the data", "[report]") {
    CHECK(nice_ticks(0, 19999) == std::vector<double>{0, 5000, 10000, 15000, 20000});
    CHECK(nice_ticks(0, 30) == std::vector<double>{0, 10, 20, 30});
    CHECK(nice_ticks(0, 54, 6) == std::vector<double>{0, 10, 20, 30, 40, 50, 60});
    CHECK(nice_ticks(0, 1) == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
    CHECK(nice_ticks(0, 0.3) == std::vector<double>{0, 0.1, 0.2, 0.3});
    CHECK(nice_ticks(-7, 12) == std::vector<double>{-10, -5, 0, 5, 10, 15});

    const double ranges[][2] = {{0, 1},   {0, 7},       {0, 11999}, {0, 15999}, {0, 19999}, {0, 54},
                                {-3, 97}, {0.1, 0.37},  {0, 3e9},   {-1e-4, 0}, {5, 5},     {0, 0},
                                {12, 13}, {-250, -249}, {0, 1e-9},  {0, 42},    {0, 101},   {1e6, 1e6 + 7}};
    for (const auto& r : ranges) {
        for (int target = 4; target <= 8; ++target) {
            const auto t = nice_ticks(r[0], r[1], target);
            INFO("range " << r[0] << " .. " << r[1] << ", target " << target);
            REQUIRE(t.size() >= 4);
            REQUIRE(t.size() <= 8);
            CHECK(t.front() <= r[0]);
            CHECK(t.back() >= r[1]);
            const double step = t[1] - t[0];
            const double mantissa = step / std::pow(10, std::floor(std::log10(step) + 1e-9));
            CHECK((std::fabs(mantissa - 1) < 1e-6 || std::fabs(mantissa - 2) < 1e-6 ||
                   std::fabs(mantissa - 2.5) < 1e-6 || std::fabs(mantissa - 5) < 1e-6));
            for (std::size_t i = 1; i < t.size(); ++i) CHECK(std::fabs(t[i] - t[i - 1] - step) <= 1e-9 * step);
            for (double v : t) CHECK(std::fabs(v / step - std::round(v / step)) < 1e-9);  // multiples of the step
        }
    }
    CHECK(nice_ticks(30, 0) == nice_ticks(0, 30));
    CHECK_THROWS_AS(nice_ticks(0, std::nan("")), std::invalid_argument);
    CHECK_THROWS_AS(nice_ticks(0, std::numeric_limits<double>::infinity()), std::invalid_argument);
}

// Mutation: delete `if (lo == hi) hi = 1;` in nice_ticks fails here.
TEST_CASE("report: a range of one value still gets ticks", "[report]") {
    CHECK(nice_ticks(0, 0) == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
    CHECK(nice_ticks(5, 5).front() == 0);
    CHECK(nice_ticks(5, 5).back() >= 5);
}

// Mutation: `std::fabs(v) >= 10000` -> `>= 1000` fails here.
TEST_CASE("report: tick labels have no trailing .0 and group thousands from 10,000", "[report]") {
    CHECK(tick_label(0) == "0");
    CHECK(tick_label(-0.0) == "0");
    CHECK(tick_label(20) == "20");
    CHECK(tick_label(2.5) == "2.5");
    CHECK(tick_label(0.25) == "0.25");
    CHECK(tick_label(0.3) == "0.3");
    CHECK(tick_label(5000) == "5000");
    CHECK(tick_label(9999) == "9999");
    CHECK(tick_label(10000) == "10,000");
    CHECK(tick_label(-15000) == "-15,000");
    CHECK(tick_label(1250000) == "1,250,000");
    CHECK(tick_label(12500.5) == "12,500.5");
}

// --- line_plot -------------------------------------------------------------

TEST_CASE("report: the plot's axes carry round tick labels from 0", "[report]") {
    const std::string svg = e2_like_plot().render();
    CHECK(tick_labels(svg, "tick-x") == std::vector<std::string>{"0", "10", "20", "30", "40", "50", "60"});
    CHECK(tick_labels(svg, "tick-left") == std::vector<std::string>{"0", "5000", "10,000", "15,000", "20,000"});
    CHECK(tick_labels(svg, "tick-right") == std::vector<std::string>{"0", "10", "20", "30"});
    // Ticks are evenly spaced and increase upwards / rightwards.
    CHECK(tick_position(svg, "tick-left", "0") > tick_position(svg, "tick-left", "20,000"));
    CHECK(tick_position(svg, "tick-x", "0") < tick_position(svg, "tick-x", "60"));
}

// Mutation: `Y(r.value, r.y_axis)` -> `Y(r.value, axis::left)` in render() fails here.
TEST_CASE("report: a reference line sits at its value on its axis", "[report]") {
    line_plot p = e2_like_plot();
    p.add_reference({orientation::horizontal, axis::left, 15000, "15,000 rows"});
    const std::string svg = p.render();
    const auto refs = elements(svg, "line", "reference");
    REQUIRE(refs.size() == 3);
    // Right axis, 19: between the right axis' 10 and 20, nine tenths of the way up.
    const double r10 = tick_position(svg, "tick-right", "10"), r20 = tick_position(svg, "tick-right", "20");
    CHECK(num(refs[0], "y1") == Approx(r10 + 0.9 * (r20 - r10)).margin(0.06));
    CHECK(num(refs[0], "y1") == num(refs[0], "y2"));
    // Vertical, 45.5 s: between 40 and 50 on x.
    const double x40 = tick_position(svg, "tick-x", "40"), x50 = tick_position(svg, "tick-x", "50");
    CHECK(num(refs[1], "x1") == Approx(x40 + 0.55 * (x50 - x40)).margin(0.06));
    CHECK(num(refs[1], "x1") == num(refs[1], "x2"));
    // Left axis, 15,000: exactly at that tick.
    CHECK(num(refs[2], "y1") == tick_position(svg, "tick-left", "15,000"));
    // Each is labelled.
    CHECK(tick_labels(svg, "reference") == std::vector<std::string>{"table watermark 19", "freeze end", "15,000 rows"});
}

// Mutation: take the reference lines out of the range (delete the `for (const
// auto& r : references_)` loop body's `take(r.value)`) fails here.
TEST_CASE("report: data and reference lines stay inside the frame", "[report]") {
    line_plot p = e2_like_plot();
    p.add_reference({orientation::horizontal, axis::right, 45, "beyond the data"});
    p.add_reference({orientation::vertical, axis::left, -3, "before the restore"});
    const std::string svg = p.render();
    const auto axes = elements(svg, "line", "axis");
    REQUIRE(axes.size() == 3);  // bottom, left, right
    const double x0 = num(axes[0], "x1"), x1 = num(axes[0], "x2"), y1 = num(axes[1], "y2"), y0 = num(axes[1], "y1");
    for (const auto& r : elements(svg, "line", "reference")) {
        for (const char* k : {"x1", "x2"}) CHECK((num(r, k) >= x0 && num(r, k) <= x1));
        for (const char* k : {"y1", "y2"}) CHECK((num(r, k) >= y0 && num(r, k) <= y1));
    }
    const std::regex coordinate("[ML]([0-9.-]+),([0-9.-]+)");
    for (const auto& s : elements(svg, "path", "series")) {
        const std::string d = s.at("d");
        for (std::sregex_iterator it(d.begin(), d.end(), coordinate), end; it != end; ++it) {
            const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
            CHECK((x >= x0 && x <= x1 && y >= y0 && y <= y1));
        }
    }
    CHECK(tick_labels(svg, "tick-right").back() == "50");
    CHECK(tick_labels(svg, "tick-x").front() == "-10");
}

// Mutation: `palette[i % palette.size()]` -> `palette[(i + 1) % palette.size()]`
// for the series path fails here.
TEST_CASE("report: series take the palette's colours in order, dashed when asked, each in the legend", "[report]") {
    line_plot p;
    for (int i = 0; i < 11; ++i)
        p.add_series({std::string("s").append(std::to_string(i)),
                      {{0, i}, {1, i + 1}},
                      i % 2 ? axis::right : axis::left,
                      i == 1});
    const std::string svg = p.render();
    const auto paths = elements(svg, "path", "series");
    REQUIRE(paths.size() == 11);
    for (std::size_t i = 0; i < paths.size(); ++i) {
        CHECK(paths[i].at("stroke") == palette[i % palette.size()]);
        CHECK(paths[i].count("stroke-dasharray") == (i == 1 ? 1u : 0u));
    }
    const auto legend_lines = elements(svg, "line", "legend");
    REQUIRE(legend_lines.size() == 11);
    CHECK(legend_lines[1].at("stroke") == palette[1]);
    CHECK(legend_lines[1].count("stroke-dasharray") == 1);
    std::vector<std::string> names;
    for (int i = 0; i < 11; ++i) names.push_back(std::string("s").append(std::to_string(i)));
    CHECK(tick_labels(svg, "legend") == names);
    // The legend wraps onto further rows but stays inside the picture.
    for (const auto& t : elements(svg, "text", "legend")) CHECK(num(t, "y") < 400);
}

// No mutation of a single line makes this fail today (nothing in render()
// depends on addresses, time or globals); it guards the --check contract.
TEST_CASE("report: the same plot renders the same bytes", "[report]") {
    const std::string a = e2_like_plot().render(), b = e2_like_plot().render();
    CHECK(a == b);
    const line_plot p = e2_like_plot();
    CHECK(p.render() == p.render());
}

// Mutation: `const auto c = [](double v) { return fixed(v, 1); };` -> `fixed(v, 2)` fails here.
TEST_CASE("report: coordinates are written with one decimal", "[report]") {
    const std::string svg = e2_like_plot().render();
    const std::regex coordinate_attribute(" (x|y|x1|y1|x2|y2|cx|cy)=\"([^\"]*)\"");
    int seen = 0;
    for (std::sregex_iterator it(svg.begin(), svg.end(), coordinate_attribute), end; it != end; ++it, ++seen)
        CHECK(std::regex_match((*it)[2].str(), std::regex("-?[0-9]+\\.[0-9]")));
    CHECK(seen > 50);
    const std::regex path_point("[ML](-?[0-9]+\\.[0-9]),(-?[0-9]+\\.[0-9])( |\")");
    const auto paths = elements(svg, "path", "series");
    REQUIRE(!paths.empty());
    for (const auto& s : paths) {
        const std::string d = s.at("d") + "\"";
        const auto points = std::distance(std::sregex_iterator(d.begin(), d.end(), path_point), std::sregex_iterator());
        CHECK(points == std::count_if(d.begin(), d.end(), [](char ch) { return ch == 'M' || ch == 'L'; }));
    }
}

// Mutation: delete `if (lo == hi) hi = 1;` in nice_ticks (the no-data axis
// then divides by zero) fails here.
TEST_CASE("report: a plot without data is still a valid, finite picture", "[report]") {
    line_plot none;
    line_plot empty;
    empty.add_series({"no samples", {}});
    empty.add_series({"only gaps", {{std::nan(""), 1}, {2, std::numeric_limits<double>::infinity()}}});
    empty.add_reference({orientation::horizontal, axis::left, std::nan(""), "nowhere"});
    line_plot flat;
    flat.add_series({"zeros", {{0, 0}, {0, 0}}});
    line_plot one;
    one.add_series({"one point", {{3, 4}}});
    for (const line_plot* p : {&none, &empty, &flat, &one}) {
        const std::string svg = p->render();
        CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
        CHECK(svg.size() > 20);
        CHECK(svg.substr(svg.size() - 7) == "</svg>\n");
        CHECK(svg.find("nan") == std::string::npos);
        CHECK(svg.find("inf") == std::string::npos);
        CHECK(svg.find("d=\"\"") == std::string::npos);
    }
    CHECK(elements(one.render(), "circle", "series").size() == 1);
    CHECK(tick_labels(empty.render(), "legend") == std::vector<std::string>{"no samples", "only gaps"});
}

// Mutation: `case '&': out += "&amp;"` -> `out += "&"` fails here.
TEST_CASE("report: labels are escaped so any text gives well-formed XML", "[report]") {
    line_plot p;
    p.title = "a < b & \"c\"";
    p.add_series({"<rows>", {{0, 1}, {1, 2}}});
    const std::string svg = p.render();
    CHECK(svg.find("<title>a &lt; b &amp; &quot;c&quot;</title>") != std::string::npos);
    CHECK(svg.find(">&lt;rows&gt;</text>") != std::string::npos);
    CHECK(svg.find("<rows>") == std::string::npos);
}

TEST_CASE("report: width and height set the picture's size", "[report]") {
    line_plot p = e2_like_plot();
    CHECK(p.render().find("width=\"760\" height=\"400\" viewBox=\"0 0 760 400\"") != std::string::npos);
    p.width = 1000;
    p.height = 300;
    const std::string svg = p.render();
    CHECK(svg.find("width=\"1000\" height=\"300\" viewBox=\"0 0 1000 300\"") != std::string::npos);
    CHECK(svg.find("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>") != std::string::npos);
}

TEST_CASE("report: a resumed run says so in its provenance, when, on which code and after what", "[report]") {
    rosterrig::result::result_envelope env;
    env.started_at = "2026-11-30T00:52:26Z", env.finished_at = "2026-11-30T02:10:00Z";
    env.code_commit = "649fd57aaaaaaaaa", env.prediction.recorded_in_commit = "889d770bbbbbbbbb";
    CHECK(rosterrig::report::provenance(env).find("Resumed") == std::string::npos);
    env.resumed = std::vector<rosterrig::result::resumption>{
        {"2026-11-30T01:59:54Z", "8daafcaccccccccc-dirty", "a wait timed out", "runs/x.json"}};
    const auto text = rosterrig::report::provenance(env);
    // Mutation: leave resumptions() out of provenance() and a merged run reads as one: this fails.
    // Mutation: cut the commit to twelve characters again and "-dirty" disappears: this fails.
    CHECK(
        text.find("Resumed 2026-11-30T01:59:54Z on code 8daafcaccccc-dirty after the run stopped (a wait timed out)") !=
        std::string::npos);
    // The envelope keeps it through a write and a strict read.
    const auto back = boost::json::value_to<rosterrig::result::result_envelope>(rosterrig::result::to_json(env));
    REQUIRE(back.resumed);
    CHECK(*back.resumed == *env.resumed);
}

TEST_CASE("the findings table takes each prediction's first clause and counts every verdict", "[report][findings]") {
    using rosterrig::experiment::prediction_outcome;
    std::vector<rosterrig::report::experiment_findings> all{
        {"e1",
         "test/claims/e1_claims.tests.cpp",
         {prediction_outcome{"e1.a", "No kill duplicates: the writer has one input. More text.", "m",
                             rosterrig::verdict_kind::held, "0 of 100"},
          prediction_outcome{"e1.b", "Upsert hides it", "m", rosterrig::verdict_kind::refuted, "3 duplicates"}}},
        {"e5",
         "test/claims/e5_claims.tests.cpp",
         {prediction_outcome{"e5.a", "A rule that cannot decide. Then why.", "m", rosterrig::verdict_kind::inconclusive,
                             "no samples"}}}};
    const auto text = rosterrig::report::findings_section(all);
    // Mutation: count an inconclusive verdict as held and the totals differ.
    CHECK(text.find("1 held, 1 refuted, 1 inconclusive") != std::string::npos);
    CHECK(text.find("| e1 | No kill duplicates. | held | 0 of 100 | `test/claims/e1_claims.tests.cpp` |") !=
          std::string::npos);
    CHECK(text.find("| e1 | Upsert hides it. | refuted | 3 duplicates |") != std::string::npos);
    CHECK(text.find("| e5 | A rule that cannot decide. | inconclusive |") != std::string::npos);
}

TEST_CASE("a long reason is cut after its last whole clause and marked as cut", "[report][findings]") {
    const std::string reason = "repeat 1: 7354 duplicates; repeat 2: 7368 duplicates; repeat 3: 7576 duplicates";
    // Mutation: cut at the limit itself and the figure "7368" is split.
    CHECK(rosterrig::report::shortened(reason, 60) == "repeat 1: 7354 duplicates; repeat 2: 7368 duplicates …");
    CHECK(rosterrig::report::shortened(reason, 500) == reason);
    CHECK(rosterrig::report::shortened("no clause boundary here at all", 10) == "no clause  …");
}

TEST_CASE("a prediction's first clause ends outside its parentheses", "[report][findings]") {
    // Mutation: ignore the parenthesis depth and the clause ends inside "(no bound: ...".
    CHECK(rosterrig::report::first_clause("No row is lost (no bound: too few kills). Why.") ==
          "No row is lost (no bound: too few kills).");
    CHECK(rosterrig::report::first_clause("v1.10 writes once: then more") == "v1.10 writes once.");
}

TEST_CASE("a prediction that continues the one before keeps its leading ellipsis", "[report][findings]") {
    // Mutation: drop the `i > 3` guard and this clause is "..".
    CHECK(rosterrig::report::first_clause("... and the records land once: every event") ==
          "... and the records land once.");
}
