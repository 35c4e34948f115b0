// rosterrig/result/strict_reader.hpp: JSON to typed structs, refusing
// anything unexpected, with errors that name the file and the JSON path.
//
//   results/e1.json: $.samples.kills[3].duplicates: expected integer
//
// Boost.JSON's value_to accepts a described struct with extra members and
// reports errors without a path; results are evidence, so here a missing
// member, a wrong type or an unknown member is an error. Supported: bool,
// integers (from JSON integers only, range-checked), floating point (from any
// number), std::string, described enums (by name), std::optional (null or
// absent), seq_range (as [first, last]), std::vector, std::map<std::string, T>, boost::json::value /
// object / array (kept as is), and described structs (every member).
#ifndef ROSTERRIG_RESULT_STRICT_READER_HPP
#define ROSTERRIG_RESULT_STRICT_READER_HPP

#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <boost/describe.hpp>
#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>

#include "rosterrig/check/missing_ranges.hpp"

namespace rosterrig::result {

namespace json = boost::json;

/// A JSON document that does not have the expected shape.
class read_error : public std::runtime_error {
public:
    read_error(std::string file, std::string path, const std::string& what)
        : std::runtime_error(file + ": " + path + ": " + what), file_(std::move(file)), path_(std::move(path)) {}
    const std::string& file() const noexcept { return file_; }
    const std::string& path() const noexcept { return path_; }

private:
    std::string file_;
    std::string path_;
};

namespace detail {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};
template <class T>
struct is_string_map : std::false_type {};
template <class T, class C, class A>
struct is_string_map<std::map<std::string, T, C, A>> : std::true_type {};

struct context {
    std::string_view file;
    [[noreturn]] void fail(const std::string& path, const std::string& what) const {
        throw read_error(std::string(file), path, what);
    }
};

inline std::string kind_name(const json::value& v) {
    switch (v.kind()) {
        case json::kind::null:
            return "null";
        case json::kind::bool_:
            return "boolean";
        case json::kind::int64:
        case json::kind::uint64:
            return "integer";
        case json::kind::double_:
            return "number";
        case json::kind::string:
            return "string";
        case json::kind::array:
            return "array";
        case json::kind::object:
            return "object";
    }
    return "?";
}

template <class T>
constexpr const char* expected_name() {
    if constexpr (std::is_same_v<T, bool>)
        return "boolean";
    else if constexpr (std::is_integral_v<T>)
        return "integer";
    else if constexpr (std::is_floating_point_v<T>)
        return "number";
    else if constexpr (std::is_same_v<T, std::string>)
        return "string";
    else if constexpr (std::is_enum_v<T>)
        return "string";
    else if constexpr (is_vector<T>::value || std::is_same_v<T, json::array>)
        return "array";
    else
        return "object";
}

template <class T>
T read(const json::value& v, const context& cx, const std::string& path);

template <class T>
T read_described(const json::value& v, const context& cx, const std::string& path) {
    const json::object* obj = v.if_object();
    if (!obj) cx.fail(path, std::string("expected object, found ") + kind_name(v));
    T out{};
    // Inherited members too (a struct described with its bases, such as the
    // experiments' parameters over experiment::feed_parameters), as Boost.JSON
    // writes them.
    using members = boost::describe::describe_members<T, boost::describe::mod_public | boost::describe::mod_inherited>;
    // unknown members first: a misspelt member then names itself
    for (const auto& kv : *obj) {
        bool known = false;
        boost::mp11::mp_for_each<members>([&](auto d) { known = known || kv.key() == d.name; });
        if (!known) cx.fail(path + "." + std::string(kv.key()), "unknown field");
    }
    boost::mp11::mp_for_each<members>([&](auto d) {
        using member_t = std::remove_cvref_t<decltype(out.*d.pointer)>;
        const std::string member_path = path + "." + d.name;
        const json::value* found = obj->if_contains(d.name);
        if (!found) {
            if constexpr (is_optional<member_t>::value)
                return;
            else
                cx.fail(member_path, std::string("missing field (expected ") + expected_name<member_t>() + ")");
        } else {
            out.*d.pointer = read<member_t>(*found, cx, member_path);
        }
    });
    return out;
}

template <class T>
T read(const json::value& v, const context& cx, const std::string& path) {
    auto wrong = [&](const char* expected) {
        cx.fail(path, std::string("expected ") + expected + ", found " + kind_name(v));
    };
    if constexpr (std::is_same_v<T, json::value>) {
        return v;
    } else if constexpr (std::is_same_v<T, json::object>) {
        if (!v.is_object()) wrong("object");
        return v.get_object();
    } else if constexpr (std::is_same_v<T, json::array>) {
        if (!v.is_array()) wrong("array");
        return v.get_array();
    } else if constexpr (is_optional<T>::value) {
        if (v.is_null()) return T{};
        return T{read<typename T::value_type>(v, cx, path)};
    } else if constexpr (std::is_same_v<T, bool>) {
        if (!v.is_bool()) wrong("boolean");
        return v.get_bool();
    } else if constexpr (std::is_integral_v<T>) {
        if (v.is_int64()) {
            const std::int64_t i = v.get_int64();
            if constexpr (std::is_unsigned_v<T>) {
                if (i < 0 || static_cast<std::uint64_t>(i) > std::numeric_limits<T>::max())
                    cx.fail(path, "integer out of range");
            } else {
                if (i < std::numeric_limits<T>::min() || i > std::numeric_limits<T>::max())
                    cx.fail(path, "integer out of range");
            }
            return static_cast<T>(i);
        }
        if (v.is_uint64()) {
            const std::uint64_t u = v.get_uint64();
            if (u > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) cx.fail(path, "integer out of range");
            return static_cast<T>(u);
        }
        wrong("integer");
        return T{};  // not reached: wrong() throws
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!v.is_number()) wrong("number");
        return static_cast<T>(v.to_number<double>());
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!v.is_string()) wrong("string");
        return std::string(v.get_string());
    } else if constexpr (std::is_enum_v<T>) {
        if (!v.is_string()) wrong("string");
        T out{};
        const json::string& s = v.get_string();
        if (!boost::describe::enum_from_string(s.c_str(), out)) {
            std::string names;
            boost::mp11::mp_for_each<boost::describe::describe_enumerators<T>>([&](auto d) {
                names += names.empty() ? "" : "|";
                names += d.name;
            });
            cx.fail(path, "expected one of " + names + ", found \"" + std::string(s) + "\"");
        }
        return out;
    } else if constexpr (std::is_same_v<T, seq_range>) {
        // A closed range is written [first, last] (check_json.hpp), the
        // shape a reader scans fastest in a long list of missing runs.
        if (!v.is_array() || v.get_array().size() != 2) wrong("array [first, last]");
        seq_range r{read<std::uint64_t>(v.get_array()[0], cx, path + "[0]"),
                    read<std::uint64_t>(v.get_array()[1], cx, path + "[1]")};
        if (r.last < r.first) cx.fail(path, "range ends before it starts");
        return r;
    } else if constexpr (is_vector<T>::value) {
        if (!v.is_array()) wrong("array");
        T out;
        const json::array& a = v.get_array();
        out.reserve(a.size());
        for (std::size_t i = 0; i < a.size(); ++i)
            out.push_back(read<typename T::value_type>(a[i], cx, path + "[" + std::to_string(i) + "]"));
        return out;
    } else if constexpr (is_string_map<T>::value) {
        if (!v.is_object()) wrong("object");
        T out;
        for (const auto& kv : v.get_object())
            out.emplace(std::string(kv.key()),
                        read<typename T::mapped_type>(kv.value(), cx, path + "." + std::string(kv.key())));
        return out;
    } else {
        static_assert(boost::describe::has_describe_members<T>::value,
                      "strict reader: describe the struct with BOOST_DESCRIBE_STRUCT");
        return read_described<T>(v, cx, path);
    }
}

}  // namespace detail

/// Reads v as a T, strictly. `file` and `path` only label errors.
template <class T>
T strict_value_to(const json::value& v, std::string_view file = "<memory>", const std::string& path = "$") {
    return detail::read<T>(v, detail::context{file}, path);
}

/// Parses a whole file as one JSON value; a syntax error names the file and
/// the line and column.
inline json::value parse_file(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw read_error(file, "$", "cannot open");
    std::ostringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    json::stream_parser p;
    boost::system::error_code ec;
    p.write(s.data(), s.size(), ec);
    if (!ec) p.finish(ec);
    if (ec) {
        // locate the failing byte: re-feed byte by byte to find the offset
        json::stream_parser q;
        std::size_t offset = 0;
        boost::system::error_code e2;
        for (; offset < s.size(); ++offset) {
            q.write(s.data() + offset, 1, e2);
            if (e2) break;
        }
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < offset && i < s.size(); ++i) {
            if (s[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        throw read_error(
            file, "$",
            "invalid JSON at line " + std::to_string(line) + " column " + std::to_string(column) + ": " + ec.message());
    }
    return p.release();
}

/// parse_file + strict_value_to.
template <class T>
T read_json_file(const std::string& file) {
    return strict_value_to<T>(parse_file(file), file);
}

}  // namespace rosterrig::result

#endif
