// The names of the launch vocabulary and a plan's one-line descriptions.
#include <clreduce/launch_params.hpp>

#include <algorithm>
#include <string>

#include <clreduce/error.hpp>

namespace clreduce {

std::string_view to_string(Stride stride) { return stride == Stride::global ? "global" : "local"; }

std::string_view to_string(InterGroup inter_group) {
    switch (inter_group) {
        case InterGroup::atomic: return "atomic";
        case InterGroup::second_pass: return "second_pass";
        case InterGroup::last_group: return "last_group";
        case InterGroup::exact_atomic: return "exact_atomic";
    }
    return "?";
}

std::string_view to_string(ParamSource source) {
    switch (source) {
        case ParamSource::override: return "override";
        case ParamSource::tuned: return "tuned";
        case ParamSource::known_device: return "known device";
        case ParamSource::device_default: return "default";
    }
    return "?";
}

std::string LaunchPlan::describe_sources() const {
    const auto one = [&](const char* name, ParamSource source) {
        std::string s = std::string(name) + "=" + std::string(to_string(source));
        if ((source == ParamSource::tuned || source == ParamSource::known_device) && tuned_n != 0)
            s += "(n=" + std::to_string(tuned_n) + ")";
        return s;
    };
    if (form == CallForm::segments) {
        std::string team = "team=" + std::string(to_string(sources.segment_team));
        if ((sources.segment_team == ParamSource::tuned || sources.segment_team == ParamSource::known_device) &&
            tuned_n != 0)
            team += "(segment length " + std::to_string(tuned_n) + ")";
        // (A segment entry's work-group size comes with its team: no size of its own to name.)
        return team + " wg=" + std::string(to_string(sources.work_group_size)) + " " + one("vec", sources.vector_width);
    }
    return one("times", sources.times) + " " + one("wg", sources.work_group_size) + " " +
           one("stride", sources.stride) + " " + one("vec", sources.vector_width) + " " +
           one("level3", sources.inter_group);
}

std::string_view to_string(FloatMode mode) {
    switch (mode) {
        case FloatMode::deterministic: return "deterministic";
        case FloatMode::atomic: return "atomic";
        case FloatMode::compensated: return "compensated";
        case FloatMode::correctly_rounded: return "correctly_rounded";
    }
    return "?";
}

FloatMode parse_float_mode(std::string_view name) {
    for (auto mode :
         {FloatMode::deterministic, FloatMode::atomic, FloatMode::compensated, FloatMode::correctly_rounded})
        if (name == to_string(mode)) return mode;
    throw InvalidArgument("unknown float mode '" + std::string(name) +
                          "' (expected deterministic, atomic, compensated or correctly_rounded)");
}

std::string LaunchPlan::describe() const {
    // The operation and float mode only where they are not the sum's defaults.
    std::string prefix = operation == Operation::sum ? "" : std::string(operation_name(operation)) + " ";
    if (user_combine) prefix = "user-combine ";
    if (transform) prefix = "transform " + prefix;
    const std::string mode =
        float_mode == FloatMode::deterministic ? "" : " mode=" + std::string(to_string(float_mode));
    const std::string types = prefix + std::string(type_name(element)) + "->" + std::string(type_name(accumulator));
    if (by_key_one_launch || by_key_marked)
        return types + (by_key_marked ? " by_key=marked wg=" : " by_key=one_launch wg=") +
               std::to_string(work_group_size) + (by_key_marked ? " chunks=" : " tiles=") + std::to_string(groups) +
               (overflow == IntegerOverflow::check ? "" : " overflow=wrap");
    if (form == CallForm::segments)
        return types + (segment_columns ? " columns=" : " segments=") + std::to_string(segments) +
               " team=" + std::to_string(segment_team) +
               (segment_columns
                    ? " (" + std::to_string(work_group_size / segment_team * vector_width) + " columns per group, " +
                          std::to_string(vector_width) + " per work-item, " + std::to_string(segment_team) +
                          (segment_team == 1 ? " lane" : " lanes") + " per column)"
                : segment_team == work_group_size ? " (a group per segment)"
                : segment_team == 1               ? " (a work-item per segment)"
                                    : " (" + std::to_string(work_group_size / segment_team) + " segments per group)") +
               (segment_medium == 0 ? ""
                                    : " medium=" + std::to_string(segment_medium) + " (longer segments: teams of " +
                                          std::to_string(std::min<std::uint32_t>(work_group_size, 32)) + ")") +
               " groups_per_segment=" + std::to_string(groups_per_segment) + " loads=" + std::to_string(segment_loads) +
               " wg=" + std::to_string(work_group_size) + " vec=" + std::to_string(vector_width) +
               " groups=" + std::to_string(groups) + mode +
               (exact_integer_bits == 0 ? "" : " exact=int" + std::to_string(exact_integer_bits)) +
               (overflow == IntegerOverflow::check ? "" : " overflow=wrap") + (result_status ? " status" : "");
    return types + " times=" + std::to_string(times) + " wg=" + std::to_string(work_group_size) +
           " stride=" + std::string(to_string(stride)) + " vec=" + std::to_string(vector_width) +
           " level3=" + std::string(to_string(inter_group)) + " groups=" + std::to_string(groups) + mode +
           (form == CallForm::sync || form == CallForm::host_data ? "" : " form=" + std::string(to_string(form))) +
           (on_host ? " on_host" : "") + (channels_at_once ? " channels=one_launch" : "") +
           (exact_integer_bits == 0 ? "" : " exact=int" + std::to_string(exact_integer_bits)) +
           (overflow == IntegerOverflow::check ? "" : " overflow=wrap") + (result_status ? " status" : "");
}

std::string_view to_string(IntegerOverflow rule) { return rule == IntegerOverflow::wrap ? "wrap" : "check"; }

IntegerOverflow parse_integer_overflow(std::string_view name) {
    for (auto rule : {IntegerOverflow::check, IntegerOverflow::wrap})
        if (name == to_string(rule)) return rule;
    throw InvalidArgument("unknown integer overflow rule '" + std::string(name) + "' (expected check or wrap)");
}

std::string_view to_string(Reproducibility reproducibility) {
    switch (reproducibility) {
        case Reproducibility::everywhere: return "everywhere";
        case Reproducibility::same_plan: return "same_plan";
        case Reproducibility::none: return "none";
    }
    return "?";
}

std::string_view to_string(CallForm form) {
    switch (form) {
        case CallForm::sync: return "sync";
        case CallForm::async: return "async";
        case CallForm::image: return "image";
        case CallForm::host_data: return "host_data";
        case CallForm::segments: return "segments";
    }
    return "?";
}

}  // namespace clreduce
