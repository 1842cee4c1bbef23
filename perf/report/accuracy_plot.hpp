#pragma once
// The accuracy command's picture: kernel time against n, one curve per float mode and type
// (and the read-only kernel's, the bound), for one data set of the command's JSON report.
#include <string>

#include <nlohmann/json.hpp>

namespace clreduce::perf {

// Plots the data set `dataset` of `report` (the accuracy command's JSON) into an SVG file.
// Throws Error when the report has no timed row of that data set or the file cannot be written.
void write_accuracy_svg(const nlohmann::json& report, const std::string& dataset, const std::string& path);

}  // namespace clreduce::perf
