#pragma once
// A result delivery by name, for the perf tool: ResultDelivery's spellings (automatic, blocking,
// paced) or an experimental one's (polled, polled_paced: experimental.hpp).
#include <string>
#include <string_view>

#include <clreduce/experimental.hpp>
#include <clreduce/reducer.hpp>
#include <clreduce/result_delivery.hpp>

namespace clreduce::perf {

// Throws InvalidArgument for a name that is neither.
inline void set_delivery(Reducer& reducer, std::string_view name) {
    for (experimental::Delivery d : {experimental::Delivery::polled, experimental::Delivery::polled_paced})
        if (name == experimental::to_string(d)) return experimental::set_result_delivery(reducer, d);
    reducer.set_result_delivery(parse_result_delivery(name));
}

// The name a reducer delivers by.
inline std::string delivery_name(const Reducer& reducer) {
    const auto experiment = experimental::result_delivery(reducer);
    return std::string(experiment ? experimental::to_string(*experiment) : to_string(reducer.result_delivery()));
}

}  // namespace clreduce::perf
