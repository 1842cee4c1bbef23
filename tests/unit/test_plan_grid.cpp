// The planner over a grid of requests: every operation and element type, sizes from empty to
// past 2^32, each call form, parameter sets that move each stage, tuned and known-device
// entries (usable and not), on described GPUs and a CPU. With CLREDUCE_PLAN_DUMP=<file> the
// test writes one line per request (the plan's description and sources, or the error), to
// compare the planner's output before and after a change.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "plan/planner.hpp"  // src/
#include "test_support.hpp"

using namespace clreduce;

namespace {

struct NamedDevice {
    std::string name;
    DeviceInfo info;
};

std::vector<NamedDevice> grid_devices() {
    std::vector<NamedDevice> out;
    out.push_back({"nvidia", test::fake_gpu()});
    DeviceInfo other = described_gpu("Other", "other GPU", 40);  // no last-group fence, no fp64
    other.has_fp64 = false;
    other.max_work_group_size = 256;
    other.local_mem_size = 32 * 1024;
    out.push_back({"other", other});
    DeviceInfo cpu = described_gpu("CPU", "cpu", 2);
    cpu.type = CL_DEVICE_TYPE_CPU;
    cpu.wavefront_width = 1;
    cpu.max_work_group_size = 4096;
    cpu.local_mem_size = 256 * 1024;
    cpu.has_fp16 = true;
    cpu.has_int64_min_max_atomics = true;
    out.push_back({"cpu", cpu});
    return out;
}

struct NamedParams {
    std::string name;
    LaunchParams params;
    bool with_tuned = false;  // also planned with each tuned entry
};

std::vector<NamedParams> grid_params() {
    std::vector<NamedParams> out;
    out.push_back({"defaults", {}, true});
    for (InterGroup l3 :
         {InterGroup::atomic, InterGroup::second_pass, InterGroup::last_group, InterGroup::exact_atomic}) {
        LaunchParams p;
        p.inter_group = l3;
        out.push_back({"l3=" + std::string(to_string(l3)), p, l3 == InterGroup::atomic});
    }
    for (FloatMode m :
         {FloatMode::deterministic, FloatMode::atomic, FloatMode::compensated, FloatMode::correctly_rounded}) {
        LaunchParams p;
        p.float_mode = m;
        out.push_back({"mode=" + std::string(to_string(m)), p, m != FloatMode::deterministic});
    }
    LaunchParams shape;
    shape.times = 8;
    shape.work_group_size = 128;
    shape.stride = Stride::local;
    shape.vector_width = 2;
    out.push_back({"shape", shape, true});
    LaunchParams bad_wg;
    bad_wg.work_group_size = 96;
    out.push_back({"wg=96", bad_wg});
    LaunchParams big_wg;
    big_wg.work_group_size = 2048;
    out.push_back({"wg=2048", big_wg});
    LaunchParams times1;
    times1.times = 1;
    times1.work_group_size = 1;
    out.push_back({"times=1 wg=1", times1});
    LaunchParams vec16;
    vec16.vector_width = 16;
    out.push_back({"vec=16", vec16});
    for (ElementType acc :
         {ElementType::int32, ElementType::uint64, ElementType::float32, ElementType::float64, ElementType::int8}) {
        LaunchParams p;
        p.accumulator = acc;
        out.push_back({"acc=" + std::string(type_name(acc)), p});
    }
    LaunchParams wrap;
    wrap.overflow = IntegerOverflow::wrap;
    out.push_back({"wrap", wrap});
    LaunchParams wrap_exact = wrap;
    wrap_exact.float_mode = FloatMode::correctly_rounded;
    wrap_exact.accumulator = ElementType::float64;
    out.push_back({"wrap cr acc=float64", wrap_exact});
    LaunchParams host;
    host.host_path_bytes = 1 << 20;
    out.push_back({"host=1MiB", host});
    LaunchParams team;
    team.segment_team = 32;
    team.segment_loads = 4;
    out.push_back({"team=32 loads=4", team, true});
    LaunchParams medium;
    medium.experimental_segments.medium = 100;
    out.push_back({"medium=100", medium});
    LaunchParams medium_team = medium;
    medium_team.segment_team = 4;
    out.push_back({"medium=100 team=4", medium_team, true});
    LaunchParams groups;
    groups.segment_team = 128;
    groups.work_group_size = 128;
    groups.groups_per_segment = 4;
    out.push_back({"whole groups x4", groups});
    LaunchParams bad_team;
    bad_team.segment_team = 3;
    out.push_back({"team=3", bad_team});
    LaunchParams cr_last = {};
    cr_last.float_mode = FloatMode::correctly_rounded;
    cr_last.inter_group = InterGroup::second_pass;
    cr_last.work_group_size = 64;
    out.push_back({"cr second_pass wg=64", cr_last});
    return out;
}

struct NamedTuned {
    std::string name;
    bool present = false;
    TunedParams tuned;
};

std::vector<NamedTuned> grid_tuned() {
    std::vector<NamedTuned> out;
    out.push_back({"none", false, {}});
    TunedParams t;
    t.params.times = 4;
    t.params.work_group_size = 256;
    t.params.vector_width = 4;
    t.params.stride = Stride::local;
    t.params.inter_group = InterGroup::second_pass;
    t.params.segment_team = 16;
    t.n = 1 << 22;
    out.push_back({"tuned", true, t});
    TunedParams known = t;
    known.source = ParamSource::known_device;
    known.params.inter_group = InterGroup::atomic;
    known.params.times = 1;
    known.params.work_group_size = 32;
    known.n = 1 << 12;
    out.push_back({"known", true, known});
    TunedParams unusable;
    unusable.params.work_group_size = 4096;
    unusable.params.vector_width = 3;
    unusable.params.times = 0;
    unusable.params.segment_team = 6;
    unusable.params.inter_group = InterGroup::exact_atomic;
    unusable.n = 1 << 30;
    out.push_back({"unusable", true, unusable});
    TunedParams tiny;  // too few work-items for 2^33 elements: 2^31 groups and more
    tiny.params.times = 1;
    tiny.params.work_group_size = 1;
    tiny.params.vector_width = 1;
    tiny.n = 1 << 10;
    out.push_back({"tiny", true, tiny});
    return out;
}

struct NamedRequest {
    std::string name;
    PlanRequest request;
};

std::vector<NamedRequest> grid_requests(Operation op, ElementType element, std::uint64_t n) {
    std::vector<NamedRequest> out;
    for (CallForm form : {CallForm::sync, CallForm::async, CallForm::image, CallForm::host_data})
        out.push_back({std::string(to_string(form)), PlanRequest{op, element, n, form}});
    PlanRequest transform{op, element, n, CallForm::sync, true};
    out.push_back({"transform", transform});
    PlanRequest batch{op, element, n, CallForm::segments};
    batch.segments = n / 100 + 1;
    out.push_back({"batch", batch});
    PlanRequest few{op, element, n, CallForm::segments};
    few.segments = 3;
    out.push_back({"few", few});
    PlanRequest csr = batch;
    csr.listed = true;
    out.push_back({"csr", csr});
    PlanRequest into_device = csr;  // the segmented *_async calls
    into_device.device_results = true;
    out.push_back({"csr into a device buffer", into_device});
    PlanRequest ranges = few;
    ranges.listed = true;
    out.push_back({"ranges", ranges});
    PlanRequest columns{op, element, n, CallForm::segments};
    columns.columns = true;
    columns.segments = 37;
    columns.column_rows = n / 37;
    out.push_back({"columns", columns});
    return out;
}

std::string plan_line(const LaunchPlan& p) {
    std::ostringstream s;
    s << p.describe() << " [" << p.describe_sources() << "] repro=" << to_string(p.reproducibility)
      << " tuned_n=" << p.tuned_n << " expr=" << type_name(p.expression_type) << " split=" << p.segment_split
      << " chunk=" << p.segment_chunk << " stride=" << to_string(p.stride) << " times=" << p.times
      << " l3=" << to_string(p.inter_group);
    return s.str();
}

// What every plan promises, whatever the request: a violated promise's name, or empty.
std::string broken_promise(const LaunchPlan& p, const PlanRequest& request, const DeviceInfo& device,
                           const NamedTuned& tuned) {
    const auto power_of_two = [](std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; };
    if (!power_of_two(p.work_group_size) || p.work_group_size > device.max_work_group_size)
        return "work-group size a power of two within the device's";
    if (!power_of_two(p.vector_width) || p.vector_width > 16) return "vector width 1 to 16";
    if (p.groups < 1 || p.groups > (1ull << 31) - 1) return "1 to 2^31 - 1 groups";
    if (p.form != request.form || p.operation != request.op || p.element != request.element)
        return "the request's form, operation and type";
    if (request.form == CallForm::async &&
        (p.inter_group == InterGroup::atomic || p.inter_group == InterGroup::exact_atomic ||
         p.float_mode == FloatMode::atomic))
        return "asynchronous results final on the device";
    if (request.form == CallForm::image && p.vector_width != 1) return "images read an element at a time";
    if (request.form == CallForm::segments &&
        (p.inter_group != InterGroup::second_pass || p.segment_team == 0 || p.segment_team > p.work_group_size ||
         !power_of_two(p.segment_team) || p.segments != request.segments))
        return "segments: a team of a power of two lanes within the group, second pass";
    // (A mean's, a norm's or the statistics' result is a double the device rounds from the
    // exact state itself: no overflow to check.)
    const bool rounded_result = p.operation == Operation::mean || p.operation == Operation::norm_l1 ||
                                p.operation == Operation::norm_l2 || p.operation == Operation::norm_inf ||
                                p.operation == Operation::statistics;
    // A result left on the device that may not fit its type is checked there and reported in the
    // caller's status word: only an integer's value in a float accumulator or an exact integer
    // sum under IntegerOverflow::check, and every such sum.
    const bool on_device = request.form == CallForm::async || request.device_results;
    const bool may_not_fit = on_device && !rounded_result &&
                             ((!is_floating(p.element) && is_floating(p.accumulator)) ||
                              (p.overflow == IntegerOverflow::check && p.exact_integer_bits != 0));
    if ((p.result_status && !may_not_fit) ||
        (on_device && p.operation == Operation::sum && p.overflow == IntegerOverflow::check &&
         p.exact_integer_bits != 0 && !p.result_status))
        return "a result on the device that may not fit its type reports it in a status word";
    if (p.on_host && request.form != CallForm::host_data) return "the host path only for host data";
    const auto& f = p.sources;
    const bool from_entry =
        tuned.present && (f.times == tuned.tuned.source || f.work_group_size == tuned.tuned.source ||
                          f.stride == tuned.tuned.source || f.vector_width == tuned.tuned.source ||
                          f.inter_group == tuned.tuned.source || f.segment_team == tuned.tuned.source);
    if ((p.tuned_n != 0) != from_entry) return "tuned_n set exactly where an entry's value is used";
    if (p.tuned_n != 0 && p.tuned_n != tuned.tuned.n) return "tuned_n the entry's size";
    return {};
}

}  // namespace

// Every plan over the grid keeps the planner's promises. The full grid (six element types, four
// sizes, about 820,000 requests, some seconds) runs with CLREDUCE_PLAN_DUMP set; by default a
// third of the types and half the sizes.
TEST_CASE("the planner over a grid of requests keeps its promises", "[plan][grid]") {
    const char* dump = std::getenv("CLREDUCE_PLAN_DUMP");
    std::ofstream file;
    if (dump != nullptr) file.open(dump);
    const std::vector<ElementType> types =
        dump != nullptr ? std::vector<ElementType>{ElementType::int32,   ElementType::uint64, ElementType::float32,
                                                   ElementType::float64, ElementType::int8,   ElementType::float16}
                        : std::vector<ElementType>{ElementType::uint64, ElementType::float32};
    const std::vector<std::uint64_t> sizes = dump != nullptr
                                                 ? std::vector<std::uint64_t>{0, 1000, 1ull << 20, 9ull << 30}
                                                 : std::vector<std::uint64_t>{1000, 9ull << 30};
    std::size_t plans = 0, refusals = 0, broken = 0;
    std::string first_broken;
    for (const NamedDevice& device : grid_devices())
        for (int o = 0; o < operation_count; ++o)
            for (ElementType element : types)
                for (std::uint64_t n : sizes)
                    for (const NamedRequest& request : grid_requests(static_cast<Operation>(o), element, n))
                        for (const NamedParams& params : grid_params())
                            for (const NamedTuned& tuned : grid_tuned()) {
                                if (tuned.present && !params.with_tuned) continue;
                                std::string line = device.name + " " + std::string(operation_name(request.request.op)) +
                                                   " " + std::string(type_name(element)) + " n=" + std::to_string(n) +
                                                   " " + request.name + " " + params.name + " " + tuned.name + ": ";
                                try {
                                    const LaunchPlan plan = make_plan(request.request, device.info, params.params,
                                                                      tuned.present ? &tuned.tuned : nullptr);
                                    line += plan_line(plan);
                                    ++plans;
                                    const std::string promise =
                                        broken_promise(plan, request.request, device.info, tuned);
                                    if (!promise.empty() && broken++ == 0) first_broken = promise + " -- " + line;
                                } catch (const Unsupported& e) {
                                    line += std::string("Unsupported: ") + e.what();
                                    ++refusals;
                                } catch (const InvalidArgument& e) {
                                    line += std::string("InvalidArgument: ") + e.what();
                                    ++refusals;
                                }
                                if (file) file << line << '\n';
                            }
    INFO(plans << " plans, " << refusals << " refusals; first broken promise: " << first_broken);
    CHECK(broken == 0);
    CHECK(plans > refusals);
}
