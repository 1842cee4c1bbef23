#pragma once
#include <clreduce/reducer.hpp>
#include <clreduce/tuning.hpp>

namespace clreduce {

// Measures the launch space on the reducer's device (coordinate descent from the default plan,
// every result checked against the CPU) and returns the best entries; stores nothing.
TuneResult measure_tuning(const Reducer& reducer, const TuneOptions& options);

// Stores result.entries in `database`; sets result.saved_to, or result.save_error on failure.
void save_tuning(const TuningDatabase& database, const DeviceInfo& device, TuneResult& result);

}  // namespace clreduce
