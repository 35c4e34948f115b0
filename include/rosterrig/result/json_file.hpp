// rosterrig/result/json_file.hpp: writing JSON files so that a complete file
// is never replaced by a partial one, and printing it for people.
#ifndef ROSTERRIG_RESULT_JSON_FILE_HPP
#define ROSTERRIG_RESULT_JSON_FILE_HPP

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <unistd.h>

#include <boost/json.hpp>

namespace rosterrig::result {

namespace json = boost::json;

namespace detail {
inline void pretty(std::string& out, const json::value& v, int indent) {
    auto newline = [&](int level) {
        out.push_back('\n');
        out.append(static_cast<std::size_t>(level) * 2, ' ');
    };
    switch (v.kind()) {
        case json::kind::object: {
            const auto& o = v.get_object();
            if (o.empty()) {
                out += "{}";
                return;
            }
            out.push_back('{');
            bool first = true;
            for (const auto& kv : o) {
                if (!first) out.push_back(',');
                first = false;
                newline(indent + 1);
                out += json::serialize(json::string(kv.key()));
                out += ": ";
                pretty(out, kv.value(), indent + 1);
            }
            newline(indent);
            out.push_back('}');
            return;
        }
        case json::kind::array: {
            const auto& a = v.get_array();
            if (a.empty()) {
                out += "[]";
                return;
            }
            bool scalars = true;
            for (const auto& e : a) scalars = scalars && !e.is_structured();
            if (scalars && a.size() <= 16) {
                out += json::serialize(v);
                return;
            }
            out.push_back('[');
            bool first = true;
            for (const auto& e : a) {
                if (!first) out.push_back(',');
                first = false;
                newline(indent + 1);
                pretty(out, e, indent + 1);
            }
            newline(indent);
            out.push_back(']');
            return;
        }
        default:
            out += json::serialize(v);
    }
}
}  // namespace detail

/// Two-space indented JSON, members in insertion order, trailing newline.
inline std::string pretty_print(const json::value& v) {
    std::string out;
    detail::pretty(out, v, 0);
    out.push_back('\n');
    return out;
}

/// Writes `text` to `<file>.tmp`, flushes it to disk, then renames it over
/// `file`. On any failure the temporary file is removed, `file` is left as it
/// was, and std::runtime_error names the step that failed.
inline void write_file_atomically(const std::string& file, const std::string& text) {
    const std::string tmp = file + ".tmp";
    auto fail = [&](const char* step, int err) {
        ::unlink(tmp.c_str());
        throw std::runtime_error(file + ": " + step + ": " + std::strerror(err));
    };
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail("cannot create temporary file", errno);
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            const int err = errno;
            ::close(fd);
            fail("write failed", err);
        }
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) {
        const int err = errno;
        ::close(fd);
        fail("fsync failed", err);
    }
    if (::close(fd) != 0) fail("close failed", errno);
    if (std::rename(tmp.c_str(), file.c_str()) != 0) fail("rename failed", errno);
}

/// pretty_print + write_file_atomically.
inline void write_json_file(const std::string& file, const json::value& v) {
    write_file_atomically(file, pretty_print(v));
}

}  // namespace rosterrig::result

#endif
