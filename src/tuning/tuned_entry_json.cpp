#include "tuning/tuned_entry_json.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include <clreduce/error.hpp>

namespace clreduce {
namespace {

using json = nlohmann::ordered_json;

Stride parse_stride(const std::string& s) {
    if (s == "global") return Stride::global;
    if (s == "local") return Stride::local;
    throw InvalidArgument("unknown stride '" + s + "'");
}

InterGroup parse_inter_group(const std::string& s) {
    if (s == "atomic") return InterGroup::atomic;
    if (s == "second_pass") return InterGroup::second_pass;
    if (s == "last_group") return InterGroup::last_group;
    if (s == "exact_atomic") return InterGroup::exact_atomic;
    throw InvalidArgument("unknown inter_group '" + s + "'");
}

// A count field: a JSON integer from 0 to T's maximum. A float, a negative number or a larger
// one is a malformed entry (converting them would wrap around or be undefined behaviour).
template <class T>
T count_field(const json& j, const char* name) {
    const json& v = j.at(name);
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() > std::numeric_limits<T>::max())
        throw InvalidArgument(std::string(name) + " must be an integer from 0 to " +
                              std::to_string(std::numeric_limits<T>::max()) + ", not " + v.dump());
    return static_cast<T>(v.get<std::uint64_t>());
}

}  // namespace

json to_json(const TunedEntry& e) {
    json j;
    j["type"] = std::string(type_name(e.type));
    j["family"] = std::string(family_name(e.family));
    j["n"] = e.n;
    if (e.segment_length != 0) j["segment_length"] = e.segment_length;
    if (e.equal_lengths) j["equal_lengths"] = true;
    const LaunchParams& p = e.params;
    if (p.times) j["times"] = *p.times;
    if (p.work_group_size) j["work_group_size"] = *p.work_group_size;
    if (p.stride) j["stride"] = std::string(to_string(*p.stride));
    if (p.vector_width) j["vector_width"] = *p.vector_width;
    if (p.inter_group) j["inter_group"] = std::string(to_string(*p.inter_group));
    if (p.segment_team) j["segment_team"] = *p.segment_team;
    if (p.host_path_bytes) j["host_data"] = *p.host_path_bytes == 0 ? "device" : "host";
    j["kernel_us"] = e.kernel_us;
    j["default_kernel_us"] = e.default_kernel_us;
    if (e.host_data_us > 0) j["host_data_us"] = e.host_data_us;
    if (e.device_data_us > 0) j["device_data_us"] = e.device_data_us;
    return j;
}

TunedEntry entry_from_json(const json& j) {
    TunedEntry e;
    e.type = parse_type(j.at("type").get<std::string>());
    e.family = parse_family(j.at("family").get<std::string>());
    e.n = count_field<std::uint64_t>(j, "n");
    if (e.n == 0) throw InvalidArgument("n must be positive");
    if (j.contains("segment_length")) {
        e.segment_length = count_field<std::uint64_t>(j, "segment_length");
        if (e.segment_length == 0) throw InvalidArgument("segment_length must be positive");
        if (!j.contains("segment_team")) throw InvalidArgument("a segment entry needs its segment_team");
    }
    if (j.contains("equal_lengths")) {
        if (!j["equal_lengths"].is_boolean()) throw InvalidArgument("equal_lengths must be true or false");
        if (e.segment_length == 0) throw InvalidArgument("equal_lengths belongs to a segment entry (segment_length)");
        e.equal_lengths = j["equal_lengths"].get<bool>();
    }
    LaunchParams& p = e.params;
    if (j.contains("times")) p.times = count_field<std::uint32_t>(j, "times");
    if (j.contains("work_group_size")) p.work_group_size = count_field<std::uint32_t>(j, "work_group_size");
    if (j.contains("stride")) p.stride = parse_stride(j["stride"].get<std::string>());
    if (j.contains("vector_width")) p.vector_width = count_field<std::uint32_t>(j, "vector_width");
    if (j.contains("inter_group")) p.inter_group = parse_inter_group(j["inter_group"].get<std::string>());
    if (j.contains("segment_team")) {
        if (e.segment_length == 0) throw InvalidArgument("segment_team belongs to a segment entry (segment_length)");
        p.segment_team = count_field<std::uint32_t>(j, "segment_team");
    }
    if (j.contains("host_data")) {
        if (e.segment_length != 0) throw InvalidArgument("host_data belongs to a single-range entry");
        const json& where = j["host_data"];
        if (!where.is_string() || (where != "host" && where != "device"))
            throw InvalidArgument("host_data must be \"host\" or \"device\", not " + where.dump());
        p.host_path_bytes = where == "host" ? std::numeric_limits<std::uint64_t>::max() : 0;
    }
    e.kernel_us = j.value("kernel_us", 0.0);
    e.host_data_us = j.value("host_data_us", 0.0);
    e.device_data_us = j.value("device_data_us", 0.0);
    e.default_kernel_us = j.value("default_kernel_us", 0.0);
    return e;
}

}  // namespace clreduce
