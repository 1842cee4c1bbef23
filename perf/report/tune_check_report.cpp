// tune --check results as a table, CSV and JSON.
#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "measure/timing.hpp"
#include "report/csv.hpp"
#include "report/output_files.hpp"
#include "report/tune_check_result.hpp"

namespace clreduce::perf {

std::optional<double> CheckCandidate::median_us() const {
    if (!problem.empty() || samples_us.empty()) return std::nullopt;
    return median(samples_us);
}

std::optional<std::size_t> CheckRow::best() const {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const auto m = candidates[i].median_us();
        if (m && (!best || *m < *candidates[*best].median_us())) best = i;
    }
    return best;
}

std::optional<double> CheckRow::ratio() const {
    const auto b = best();
    const auto tuned_us = candidates.at(tuned).median_us();
    if (!b || !tuned_us) return std::nullopt;
    const double best_us = *candidates[*b].median_us();
    return best_us > 0 ? *tuned_us / best_us : 1.0;
}

std::string CheckRow::verdict() const {
    const auto r = ratio();
    if (!r) return "ERROR";
    return *r <= kTunedWithin ? "PASS" : "FAIL";
}

bool CheckRow::wrong() const {
    return std::any_of(candidates.begin(), candidates.end(),
                       [](const CheckCandidate& c) { return !c.problem.empty(); });
}

std::size_t CheckReport::passed() const {
    return std::count_if(rows.begin(), rows.end(), [](const CheckRow& r) { return r.verdict() == "PASS"; });
}

namespace {

std::string others(const LaunchPlan& p) {
    return fmt::format("wg={} {} vec={} {}", p.work_group_size, to_string(p.stride), p.vector_width,
                       to_string(p.inter_group));
}

std::string us_text(const std::optional<double>& us) { return us ? fmt::format("{:.2f}", *us) : "-"; }

std::string within_percent() { return fmt::format("{:g}%", (kTunedWithin - 1) * 100); }

}  // namespace

void print_check_header() {
    std::cout << fmt::format("{:<8} {:>5} {:<13} {:<30} {:>6} {:>6} {:>10} {:>10} {:>7}  {}\n", "type", "n", "source",
                             "other parameters", "tuned", "best", "tuned_us", "best_us", "ratio", "verdict");
}

void print_check_row(const CheckRow& row) {
    const auto best = row.best();
    const auto ratio = row.ratio();
    std::cout << fmt::format("{:<8} {:>5} {:<13} {:<30} {:>6} {:>6} {:>10} {:>10} {:>7}  {}\n", type_name(row.type),
                             size_label(row.n), to_string(row.plan.sources.times), others(row.plan), row.plan.times,
                             best ? std::to_string(row.candidates[*best].times) : "-",
                             us_text(row.candidates[row.tuned].median_us()),
                             us_text(best ? row.candidates[*best].median_us() : std::nullopt),
                             ratio ? fmt::format("{:.3f}", *ratio) : "-", row.verdict());
    for (const CheckCandidate& c : row.candidates)
        if (!c.problem.empty()) std::cout << "    times=" << c.times << ": " << c.problem << "\n";
}

std::string check_summary(const CheckReport& report) {
    return fmt::format(
        "{} of {} buckets within {} of the best times (at least {} interleaved rounds per candidate, "
        "more for short kernels)",
        report.passed(), report.rows.size(), within_percent(), report.rounds);
}

void write_check_csv(const CheckReport& report, const std::string& path) {
    auto out = open_output(path);
    out << csv_row({"type", "n", "source", "work_group_size", "stride", "vector_width", "inter_group", "tuned_times",
                    "best_times", "tuned_us", "best_us", "ratio", "verdict", "candidates"});
    for (const CheckRow& r : report.rows) {
        const auto best = r.best();
        const auto ratio = r.ratio();
        out << csv_row(
            {std::string(type_name(r.type)), std::to_string(r.n), std::string(to_string(r.plan.sources.times)),
             std::to_string(r.plan.work_group_size), std::string(to_string(r.plan.stride)),
             std::to_string(r.plan.vector_width), std::string(to_string(r.plan.inter_group)),
             std::to_string(r.plan.times), best ? std::to_string(r.candidates[*best].times) : "",
             us_text(r.candidates[r.tuned].median_us()), us_text(best ? r.candidates[*best].median_us() : std::nullopt),
             ratio ? fmt::format("{:.4f}", *ratio) : "", r.verdict(), std::to_string(r.candidates.size())});
    }
}

void write_check_json(const CheckReport& report, const std::string& path) {
    nlohmann::json rows = nlohmann::json::array();
    for (const CheckRow& r : report.rows) {
        nlohmann::json candidates = nlohmann::json::array();
        for (const CheckCandidate& c : r.candidates) {
            nlohmann::json j = {{"times", c.times}, {"samples", c.samples_us.size()}};
            if (const auto m = c.median_us()) j["median_us"] = *m;
            if (!c.problem.empty()) j["problem"] = c.problem;
            candidates.push_back(j);
        }
        const auto best = r.best();
        const auto ratio = r.ratio();
        nlohmann::json row = {{"type", type_name(r.type)},
                              {"n", r.n},
                              {"source", to_string(r.plan.sources.times)},
                              {"work_group_size", r.plan.work_group_size},
                              {"stride", to_string(r.plan.stride)},
                              {"vector_width", r.plan.vector_width},
                              {"inter_group", to_string(r.plan.inter_group)},
                              {"tuned_times", r.plan.times},
                              {"rounds", r.rounds},
                              {"verdict", r.verdict()},
                              {"pass", r.verdict() == "PASS"},
                              {"candidates", candidates}};
        if (best) {
            row["best_times"] = r.candidates[*best].times;
            row["best_us"] = *r.candidates[*best].median_us();
        }
        if (const auto t = r.candidates[r.tuned].median_us()) row["tuned_us"] = *t;
        if (ratio) row["ratio"] = *ratio;
        rows.push_back(row);
    }
    const nlohmann::json doc = {{"command", "tune-check"},       {"device", device_json(report.device)},
                                {"rounds", report.rounds},       {"within", kTunedWithin},
                                {"buckets", report.rows.size()}, {"passed", report.passed()},
                                {"notes", report.notes},         {"rows", rows}};
    open_output(path) << doc.dump(2) << "\n";
}

}  // namespace clreduce::perf
