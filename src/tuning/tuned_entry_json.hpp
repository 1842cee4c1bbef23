#pragma once
// One tuned entry as JSON, the same in the tuning database file and in the known-device
// table (known_devices.json), so that the tuner's output can be published as it is.
#include <nlohmann/json.hpp>

#include <clreduce/tuning.hpp>

namespace clreduce {

nlohmann::ordered_json to_json(const TunedEntry& e);
// Throws (nlohmann's exceptions or InvalidArgument) when the entry is malformed.
TunedEntry entry_from_json(const nlohmann::ordered_json& j);

}  // namespace clreduce
