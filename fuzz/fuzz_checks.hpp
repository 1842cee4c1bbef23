#pragma once
// What each fuzz target checks on one input, shared by the libFuzzer targets (fuzz_*.cpp) and
// the unit test that replays the seed corpora and every input a fuzzer once broke
// (tests/unit/test_fuzz_inputs.cpp). A check returns normally when the input was handled as
// documented, and throws PropertyViolated (or lets an unexpected exception out) when not.
#include <stdexcept>
#include <string_view>

namespace clreduce::fuzz {

class PropertyViolated : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

// transform_source(): refuses with InvalidArgument, or returns text of the kernel's safe
// alphabet that parses again to itself.
void check_transform_expression(std::string_view text);
// TuningDatabase::load() of a file holding `bytes`: never throws; store() on top of it throws
// nothing but clreduce::Error, and what it stored is then loaded.
void check_tuning_database(std::string_view bytes);
// decode_program_file(): a file it accepts encodes back to the same bytes.
void check_program_file(std::string_view bytes);
// match_device_spec(): the first line is the spec, each further line a device's
// "platform name / device name"; a match is in range and is what the spec says.
void check_device_spec(std::string_view bytes);
// Partial::from_bytes(): refuses with InvalidArgument, or gives a partial that encodes back to
// the same bytes, merges with itself, and whose value (its operation, its element type) is a
// value or a clreduce::Error.
void check_partial_bytes(std::string_view bytes);

}  // namespace clreduce::fuzz
