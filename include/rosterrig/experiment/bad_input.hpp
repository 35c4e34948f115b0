// rosterrig/experiment/bad_input.hpp: the one exception for input a run
// cannot take (a flag, a file, parameters the stack cannot run, a config a
// component refuses). A driver prints it and exits 2; thrown before anything
// is created, nothing is.
#ifndef ROSTERRIG_EXPERIMENT_BAD_INPUT_HPP
#define ROSTERRIG_EXPERIMENT_BAD_INPUT_HPP

#include <stdexcept>
#include <string>

namespace rosterrig::experiment {

class bad_input : public std::runtime_error {
public:
    /// `usage`, when the mistake is in the flags, is printed after the reason.
    explicit bad_input(const std::string& what, std::string usage = {})
        : std::runtime_error(what), usage_(std::move(usage)) {}
    const std::string& usage() const { return usage_; }

private:
    std::string usage_;
};

}  // namespace rosterrig::experiment

#endif
