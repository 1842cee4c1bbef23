// clreduce._clreduce: the native part of the Python package (python/clreduce/ is the
// numpy-shaped layer over it). Each concern binds itself: errors, the Reducer and its core
// call, Partial, MultiReducer.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "binding.hpp"

NB_MODULE(_clreduce, m) {
    using namespace clreduce_python;
    m.doc() = "clreduce's native module: the core call bound once (see the clreduce package).";
    bind_errors(m);
    bind_partial(m);
    bind_reducer(m);
    bind_multi(m);
    m.def(
        "operations",
        [] {
        std::vector<std::string> names;
        for (int i = 0; i < clreduce::operation_count; ++i)
            names.emplace_back(clreduce::operation_name(static_cast<clreduce::Operation>(i)));
        return names;
        },
        "The operations' names, in the library's order.");
}
