#pragma once
#include <stdexcept>

namespace clreduce::expr {

// A fault in a transform expression, worded without the expression itself
// ("unexpected '=' at column 3"); transform_source() names the expression and throws
// InvalidArgument.
class SyntaxError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace clreduce::expr
