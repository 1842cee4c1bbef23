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

}  // namespace

TEST_CASE("the planner's output over a grid of requests", "[plan][grid]") {
    const char* dump = std::getenv("CLREDUCE_PLAN_DUMP");
    std::ofstream file;
    if (dump != nullptr) file.open(dump);
    std::size_t plans = 0, refusals = 0;
    for (const NamedDevice& device : grid_devices())
        for (int o = 0; o < operation_count; ++o)
            for (ElementType element : {ElementType::int32, ElementType::uint64, ElementType::float32,
                                        ElementType::float64, ElementType::int8, ElementType::float16})
                for (std::uint64_t n : {0ull, 1000ull, 1ull << 20, 9ull << 30})
                    for (const NamedRequest& request : grid_requests(static_cast<Operation>(o), element, n))
                        for (const NamedParams& params : grid_params())
                            for (const NamedTuned& tuned : grid_tuned()) {
                                if (tuned.present && !params.with_tuned) continue;
                                std::string line = device.name + " " + std::string(operation_name(request.request.op)) +
                                                   " " + std::string(type_name(element)) + " n=" + std::to_string(n) +
                                                   " " + request.name + " " + params.name + " " + tuned.name + ": ";
                                try {
                                    line += plan_line(make_plan(request.request, device.info, params.params,
                                                                tuned.present ? &tuned.tuned : nullptr));
                                    ++plans;
                                } catch (const Unsupported& e) {
                                    line += std::string("Unsupported: ") + e.what();
                                    ++refusals;
                                } catch (const InvalidArgument& e) {
                                    line += std::string("InvalidArgument: ") + e.what();
                                    ++refusals;
                                }
                                if (file) file << line << '\n';
                            }
    CHECK(plans > 0);
    CHECK(refusals > 0);
}
