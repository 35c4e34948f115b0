// rosterrig/cli/row_lines.hpp: the generator flags every command shares, and
// reading table rows back from JSON lines (Boost.JSON).
//
// A row line is one JSON object. `npi` is required (a string of digits or an
// integer); `seq` is an integer and optional; the provider fields (name,
// taxonomy, address, city, state, zip, phone, status) are optional as a
// group: when one is present all must be, as strings. Other members (source,
// revision, partition, ...) are ignored, so whatever a table holds can be fed.
#ifndef ROSTERRIG_CLI_ROW_LINES_HPP
#define ROSTERRIG_CLI_ROW_LINES_HPP

#include <array>
#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <boost/json.hpp>

#include "rosterrig/cli/arg_parser.hpp"
#include "rosterrig/check/observed_row.hpp"
#include "rosterrig/generate/roster_spec.hpp"

namespace rosterrig::cli {

/// --seed (required), --providers, --events, --partitions, --late-stale.
inline void add_roster_flags(arg_parser& p, roster_spec& spec) {
    p.option("--seed", spec.seed, "S", "the feed's seed", required);
    p.option("--providers", spec.providers, "P", "distinct providers to draw from (default 2000)");
    p.option("--events", spec.events, "N", "events in the feed (default 12000)");
    p.option("--partitions", spec.partitions, "K", "Kafka partitions (default 4)");
    p.option("--late-stale", spec.late_stale_fraction, "F",
             "fraction of events that re-deliver an older revision late (default 0)");
}

/// A malformed row; the caller adds the line number.
class row_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A row as read: seq, npi, and the record when the row carried one.
struct read_row {
    std::optional<std::uint64_t> seq;
    std::uint64_t npi = 0;
    bool has_fields = false;
    provider_fields fields;  ///< valid when has_fields

    observed_row observed() const {
        return observed_row{seq, npi, has_fields ? std::optional<std::uint64_t>(fields_digest(fields)) : std::nullopt};
    }
};

/// Parses rows one line at a time, reusing its buffers.
class row_reader {
public:
    row_reader() : parser_(boost::json::storage_ptr(), opts()) {}

    /// Parses one line into `row` (reused). Throws row_error.
    void parse(std::string_view line, read_row& row) {
        boost::json::monotonic_resource mr(buffer_.data(), buffer_.size());
        parser_.reset(&mr);
        boost::system::error_code ec;
        parser_.write(line.data(), line.size(), ec);
        if (ec) throw row_error("invalid JSON: " + ec.message());
        const boost::json::value v = parser_.release();
        const boost::json::object* obj = v.if_object();
        if (!obj) throw row_error("expected a JSON object");

        row.seq.reset();
        if (const auto* s = obj->if_contains("seq"); s && !s->is_null()) {
            if (s->is_int64() && s->get_int64() >= 0)
                row.seq = static_cast<std::uint64_t>(s->get_int64());
            else if (s->is_uint64())
                row.seq = s->get_uint64();
            else
                throw row_error("seq: expected a non-negative integer");
        }
        const auto* n = obj->if_contains("npi");
        if (!n) throw row_error("npi: missing");
        if (n->is_int64() && n->get_int64() > 0)
            row.npi = static_cast<std::uint64_t>(n->get_int64());
        else if (n->is_uint64())
            row.npi = n->get_uint64();
        else if (n->is_string()) {
            const auto& s = n->get_string();
            std::uint64_t value = 0;
            const auto [p, e] = std::from_chars(s.data(), s.data() + s.size(), value);
            if (s.empty() || e != std::errc{} || p != s.data() + s.size())
                throw row_error("npi: expected digits, got \"" + std::string(s) + "\"");
            row.npi = value;
        } else
            throw row_error("npi: expected a string of digits or an integer");

        static constexpr std::array<std::string_view, 8> names{"name",  "taxonomy", "address", "city",
                                                               "state", "zip",      "phone",   "status"};
        std::array<std::string*, 8> slots{&row.fields.name,  &row.fields.taxonomy, &row.fields.address,
                                          &row.fields.city,  &row.fields.state,    &row.fields.zip,
                                          &row.fields.phone, &row.fields.status};
        int present = 0;
        for (std::size_t i = 0; i < names.size(); ++i) {
            const auto* f = obj->if_contains(names[i]);
            if (!f) continue;
            if (!f->is_string()) throw row_error(std::string(names[i]) + ": expected a string");
            slots[i]->assign(f->get_string().data(), f->get_string().size());
            ++present;
        }
        if (present != 0 && present != static_cast<int>(names.size())) {
            for (std::size_t i = 0; i < names.size(); ++i)
                if (!obj->if_contains(names[i]))
                    throw row_error(std::string(names[i]) + ": missing (provider fields come all or none)");
        }
        row.has_fields = present != 0;
    }

private:
    static boost::json::parse_options opts() {
        boost::json::parse_options o;
        o.max_depth = 8;
        return o;
    }
    boost::json::parser parser_;
    std::array<unsigned char, 8192> buffer_{};
};

}  // namespace rosterrig::cli

#endif
