#pragma once
// Partial (partial.hpp) from a call's Outcome, and back to an Outcome whose results the
// operation_results.hpp functions read, so that a merged partial gives its value the same way
// a call does.
#include <clreduce/partial.hpp>

#include "api/reducer_state.hpp"

namespace clreduce {

struct PartialAccess {
    // The partial of a call: its state, with exact integer sums widened to int192 (so that
    // merges stay exact) and their plug-in named add_int192.
    static Partial make(const Outcome& out);
    // An Outcome standing for the partial (the fields the results read).
    static Outcome outcome(const Partial& p);
};

}  // namespace clreduce
