#include "tuning/tuner_segments.hpp"

namespace clreduce {

std::vector<std::uint64_t> segment_stage_offsets(std::uint64_t n, std::uint64_t length, bool equal,
                                                 std::uint64_t seed) {
    std::vector<std::uint64_t> offsets{0};
    if (equal) {
        for (std::uint64_t s = 0; s < n / length; ++s) offsets.push_back(offsets.back() + length);
        return offsets;
    }
    for (std::uint64_t s = 0; offsets.back() < n; ++s) {
        const std::uint64_t drawn = tuning_mix(seed ^ (s * 0x9e3779b97f4a7c15ull)) % (2 * length + 1);
        offsets.push_back(std::min(n, offsets.back() + drawn));
    }
    return offsets;
}

std::vector<std::uint32_t> segment_stage_teams(std::uint32_t rule_team, std::uint32_t work_group_size) {
    std::vector<std::uint32_t> teams;
    for (std::uint32_t team = 1; team <= work_group_size; team *= 2)
        if (std::uint64_t(team) * 8 >= rule_team && team <= std::uint64_t(rule_team) * 8) teams.push_back(team);
    return teams;
}

std::size_t segment_team_choice(const FinalChoice& choice, std::size_t rule_index) {
    const std::optional<double> rule_us =
        rule_index < choice.retimed.size() ? choice.retimed[rule_index] : std::nullopt;
    if (!rule_us || choice.index == rule_index) return choice.index;
    return choice.us < *rule_us * kSegmentTeamMargin ? choice.index : rule_index;
}

double kernel_us_of(const CallInfo& info) {
    double total = 0;
    for (const cl::Event& e : info.kernel_events) {
        cl_ulong start = 0, end = 0;
        check(e.getProfilingInfo(CL_PROFILING_COMMAND_START, &start), "clGetEventProfilingInfo");
        check(e.getProfilingInfo(CL_PROFILING_COMMAND_END, &end), "clGetEventProfilingInfo");
        total += double(end - start) / 1000.0;
    }
    return total;
}

}  // namespace clreduce
