// rosterrig/cli/arg_parser.hpp: the small flag parser every rosterrig command uses.
//
//   rosterrig::cli::arg_parser p{"rosterrig generate", "Writes the roster feed as JSON lines."};
//   p.option("--seed", spec.seed, "S", "the feed's seed", required);
//   p.flag("--verbose", verbose, "say more");
//   if (!p.parse(argc, argv, 2)) return 0;       // --help printed the usage
//
// Flags are `--name value` or `--name=value`. Numbers must be whole tokens
// (from_chars, no sign for unsigned, no trailing text). Unknown flags, missing
// values, bad numbers, repeated or missing required flags throw usage_error;
// callers print what() and usage() to stderr and exit 2.
#ifndef ROSTERRIG_CLI_ARG_PARSER_HPP
#define ROSTERRIG_CLI_ARG_PARSER_HPP

#include <charconv>
#include <cstdint>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace rosterrig::cli {

class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline constexpr bool required = true;

class arg_parser {
public:
    arg_parser(std::string command, std::string summary) : command_(std::move(command)), summary_(std::move(summary)) {}

    /// A boolean switch: present = true.
    arg_parser& flag(std::string name, bool& out, std::string help) {
        options_.push_back(
            {std::move(name), "", std::move(help), false, true, false, [&out](std::string_view) { out = true; }});
        return *this;
    }

    /// A valued option: std::string, any integer type, double, a
    /// comma-separated list of whole numbers (std::vector<std::int64_t>), or a
    /// comma-separated list of names (std::vector<std::string>; no empty name).
    template <class T>
    arg_parser& option(std::string name, T& out, std::string metavar, std::string help, bool is_required = false) {
        std::string flag_name = name;
        options_.push_back({std::move(name), std::move(metavar), std::move(help), is_required, false, false,
                            [&out, flag_name](std::string_view text) { out = convert<T>(flag_name, text); }});
        return *this;
    }

    /// A string option restricted to a set of values.
    arg_parser& choice(std::string name, std::string& out, std::vector<std::string> choices, std::string help,
                       bool is_required = false) {
        std::string metavar;
        for (const auto& c : choices) metavar += (metavar.empty() ? "" : "|") + c;
        std::string flag_name = name;
        options_.push_back({std::move(name), metavar, std::move(help), is_required, false, false,
                            [&out, flag_name, choices](std::string_view text) {
                                for (const auto& c : choices)
                                    if (c == text) {
                                        out = c;
                                        return;
                                    }
                                throw usage_error(flag_name + ": expected one of " + join(choices) + ", got \"" +
                                                  std::string(text) + "\"");
                            }});
        return *this;
    }

    /// Parses args; returns false (after printing usage to `help_out`) when
    /// --help or -h is among them.
    bool parse(const std::vector<std::string>& args, std::ostream& help_out = std::cout) {
        for (const auto& a : args)
            if (a == "--help" || a == "-h") {
                help_out << usage();
                return false;
            }
        for (std::size_t i = 0; i < args.size(); ++i) {
            std::string_view arg = args[i];
            if (arg.size() < 3 || arg.substr(0, 2) != "--")
                throw usage_error("unexpected argument \"" + args[i] + "\"");
            std::string_view name = arg, value;
            bool inline_value = false;
            if (const auto eq = arg.find('='); eq != std::string_view::npos) {
                name = arg.substr(0, eq);
                value = arg.substr(eq + 1);
                inline_value = true;
            }
            entry* e = find(name);
            if (!e) throw usage_error("unknown flag " + std::string(name));
            if (e->seen) throw usage_error(std::string(name) + " given twice");
            e->seen = true;
            if (e->is_flag) {
                if (inline_value) throw usage_error(std::string(name) + " takes no value");
                e->set({});
                continue;
            }
            if (!inline_value) {
                if (i + 1 >= args.size()) throw usage_error(std::string(name) + " needs a value (" + e->metavar + ")");
                value = args[++i];
            }
            e->set(value);
        }
        for (const auto& e : options_)
            if (e.is_required && !e.seen) throw usage_error("missing required flag " + e.name);
        return true;
    }

    bool parse(int argc, char** argv, int first = 1, std::ostream& help_out = std::cout) {
        std::vector<std::string> args;
        for (int i = first; i < argc; ++i) args.emplace_back(argv[i]);
        return parse(args, help_out);
    }

    /// True when the flag was given on the command line.
    bool given(std::string_view name) const {
        for (const auto& e : options_)
            if (e.name == name) return e.seen;
        return false;
    }

    std::string usage() const {
        std::string u = "usage: " + command_;
        for (const auto& e : options_) {
            std::string item = e.name + (e.is_flag ? "" : " " + e.metavar);
            u += e.is_required ? " " + item : " [" + item + "]";
        }
        u += "\n\n" + summary_ + "\n\n";
        for (const auto& e : options_) {
            std::string left = "  " + e.name + (e.is_flag ? "" : " " + e.metavar);
            if (left.size() < 28)
                left.append(28 - left.size(), ' ');
            else
                left += "  ";
            u += left + e.help + (e.is_required ? " (required)" : "") + "\n";
        }
        u += "  --help                    show this help\n";
        return u;
    }

private:
    struct entry {
        std::string name, metavar, help;
        bool is_required, is_flag, seen;
        std::function<void(std::string_view)> set;
    };

    entry* find(std::string_view name) {
        for (auto& e : options_)
            if (e.name == name) return &e;
        return nullptr;
    }

    static std::string join(const std::vector<std::string>& v) {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
        return s;
    }

    template <class T>
    static T convert(const std::string& name, std::string_view text) {
        if constexpr (std::is_same_v<T, std::string>) {
            return std::string(text);
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
            // a comma-separated list of names: coordinator-pause,worker-join
            std::vector<std::string> out;
            std::size_t from = 0;
            for (;;) {
                const auto comma = text.find(',', from);
                const auto one =
                    text.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from);
                if (one.empty())
                    throw usage_error(name + ": expected names separated by commas, got \"" + std::string(text) + "\"");
                out.emplace_back(one);
                if (comma == std::string_view::npos) return out;
                from = comma + 1;
            }
        } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) {
            // a comma-separated list of whole numbers: 5000,30000,120000
            std::vector<std::int64_t> out;
            std::size_t from = 0;
            for (;;) {
                const auto comma = text.find(',', from);
                out.push_back(convert<std::int64_t>(
                    name, text.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from)));
                if (comma == std::string_view::npos) return out;
                from = comma + 1;
            }
        } else if constexpr (std::is_integral_v<T>) {
            T v{};
            const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (text.empty() || ec != std::errc{} || p != text.data() + text.size())
                throw usage_error(name + ": expected a whole number" +
                                  (std::is_unsigned_v<T> ? std::string(" >= 0") : std::string()) + ", got \"" +
                                  std::string(text) + "\"");
            return v;
        } else {
            static_assert(std::is_same_v<T, double>,
                          "option type: std::string, an integer type, double, or a list of int64 or of names");
            std::string s(text);
            std::size_t used = 0;
            double v = 0;
            try {
                v = std::stod(s, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (s.empty() || used != s.size()) throw usage_error(name + ": expected a number, got \"" + s + "\"");
            return v;
        }
    }

    std::string command_, summary_;
    std::vector<entry> options_;
};

}  // namespace rosterrig::cli

#endif
