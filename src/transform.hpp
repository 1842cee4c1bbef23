#pragma once
#include <string>
#include <string_view>

namespace clreduce {

// The user's transform expression, checked to be one OpenCL C expression that cannot leave
// its slot in the generated source; throws InvalidArgument naming what was rejected.
std::string checked_transform(std::string_view expression);

}  // namespace clreduce
