// rosterrig/experiment/run_provenance.hpp: whether a run may start, from the
// commit compiled into the binary, the checkout's HEAD and whether the
// checkout's code has uncommitted changes. A full run's result is evidence:
// it must come from committed code, and from the commit the checkout is at,
// so what it records is what ran (a `--resume` too: it continues a full run).
// A quick run is not evidence; it only warns.
//
// Pure: the driver asks git, this decides.
#ifndef ROSTERRIG_EXPERIMENT_RUN_PROVENANCE_HPP
#define ROSTERRIG_EXPERIMENT_RUN_PROVENANCE_HPP

#include <cctype>
#include <string>
#include <string_view>

namespace rosterrig::experiment {

/// The folders (and files) of the checkout whose changes make a run's code
/// uncommitted: the build script (cmake/build_commit.cmake) and the driver
/// (drivers/live/runner/provenance.cpp) both ask git about exactly these. results/,
/// README.md and runs/ are left out: a full run writes them, and the next
/// run of scripts/run-all must not be refused for it.
inline constexpr const char* code_paths = "include drivers sql compose cmake CMakeLists.txt";

/// A commit as compiled in: `git describe --always --abbrev=40` with
/// "-dirty" appended when the code had uncommitted changes at build time.
struct binary_commit {
    std::string commit;  ///< 40 hex digits, or "" when the build could not ask git
    bool dirty = false;
};

/// Reads "<sha>", "<sha>-dirty", "<tag>-<n>-g<sha>[-dirty]" or "unknown".
inline binary_commit parse_binary_commit(std::string_view text) {
    binary_commit out;
    constexpr std::string_view suffix = "-dirty";
    if (text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix) {
        out.dirty = true;
        text.remove_suffix(suffix.size());
    }
    if (const auto g = text.rfind("-g"); g != std::string_view::npos && text.size() - (g + 2) == 40)
        text.remove_prefix(g + 2);
    if (text.size() != 40) return out;
    for (char c : text)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return out;
    out.commit = std::string(text);
    return out;
}

/// The commit a result records as the code that ran: the binary's.
inline std::string recorded_commit(const binary_commit& b) {
    return (b.commit.empty() ? std::string("unknown") : b.commit) + (b.dirty ? "-dirty" : "");
}

struct run_permission {
    bool allowed = true;
    std::string reason;  ///< why it is refused, or what a quick run is warned of; "" when all agree
};

/// May this run start? `head` is the checkout's HEAD (40 hex digits, "" when
/// git could not say), `tree_dirty` whether the code paths have uncommitted
/// changes now, `quick` a --quick run (a --resume is judged as the run it
/// continues).
inline run_permission may_run(const binary_commit& binary, const std::string& head, bool tree_dirty, bool quick) {
    std::string why;
    auto add = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
    if (binary.commit.empty())
        add("this binary does not know the commit it was built from (git was not available to the build)");
    else if (head.empty())
        add("the checkout's HEAD could not be read from git");
    else if (binary.commit != head)
        add("this binary was built from " + binary.commit.substr(0, 12) + " but the checkout is at " +
            head.substr(0, 12) + ": rebuild it (cmake --build build) so the result records the code that ran");
    if (binary.dirty) add("this binary was built from uncommitted code (" + binary.commit.substr(0, 12) + "-dirty)");
    if (tree_dirty) add(std::string("the checkout has uncommitted changes in ") + code_paths);
    if (why.empty()) return {};
    if (quick) return {true, "warning: " + why + " (a --quick run is not evidence and goes on)"};
    return {false, why +
                       ". A full run's result must come from committed code at the checkout's HEAD: commit, rebuild "
                       "and run again (a --quick run only warns)"};
}

}  // namespace rosterrig::experiment

#endif
