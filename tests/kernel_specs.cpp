// clreduce-kernel-specs <device> <folder>: the kernel specialisations the library would build on
// a described device, for compiling them with another vendor's compiler
// (tests/compile_kernels_amd_spirv.sh). The planner plans every operation and transform (with a
// built-in combine, or one of the user's own) over every element type in every call form
// (range, asynchronous, image: one and three channels, pitched and dense, with and without a
// mask; segments: batches, listed, columns, into a device buffer), under the defaults, each
// level 3, each float mode and a few launch shapes; each plan's specs are what the library makes
// of it (kernel_spec.cpp, which takes the vendor's choices from device/vendor.cpp). Of the
// distinct specialisations (about 10,000; those differing only in counts that size loops, times,
// exact copies, chunk and medium lengths, count once) it keeps a covering set, chosen greedily:
// every program text with every element and accumulator type it is built for, and every value of
// every other -D option with every program text and with every element and accumulator type
// (about 580). Writes <folder>/source<K>.cl (the program texts) and <folder>/specs.txt, a line
// per kept specialisation: K, a tab, the build options.
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <queue>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <clreduce/clreduce.hpp>

#include "device/described_device.hpp"
#include "exec/fused_by_key.hpp"
#include "exec/run_heads.hpp"
#include "kernels/kernel_source.hpp"
#include "kernels/kernel_spec.hpp"
#include "plan/planner.hpp"
#include "transform/combine.hpp"

using namespace clreduce;

namespace {

// The devices: AMD GPUs as cl_amd_device_attribute_query describes them (wavefronts of 64 on
// CDNA, gfx90a and gfx942; 32 on RDNA 3, gfx1100), and a GPU without a vendor extension (the
// SPIR-V consumer, an Intel GPU: no fp64 assumed, so float data takes float accumulators).
DeviceInfo describe(const std::string& name) {
    DeviceInfo d = described_gpu("AMD Accelerated Parallel Processing", name, 104);
    d.vendor = "Advanced Micro Devices, Inc.";
    d.max_work_group_size = 256;
    d.local_mem_size = 64 * 1024;
    d.has_fp16 = true;
    d.has_int64_min_max_atomics = true;
    d.has_float_denormals = true;
    d.is_nvidia = false;
    if (name == "gfx90a" || name == "gfx942") {
        d.wavefront_width = 64;
    } else if (name == "gfx1100") {
        d.wavefront_width = 32;
        d.max_work_group_size = 1024;
    } else if (name == "spir64") {
        d.platform_name = "Intel(R) OpenCL Graphics";
        d.vendor = "Intel(R) Corporation";
        d.wavefront_width = 1;
        d.max_work_group_size = 512;
        d.has_fp64 = false;
    } else {
        throw InvalidArgument("unknown device '" + name + "' (gfx90a, gfx1100, gfx942, spir64)");
    }
    return d;
}

std::vector<LaunchParams> param_sets() {
    std::vector<LaunchParams> out{LaunchParams{}};
    for (InterGroup l3 :
         {InterGroup::atomic, InterGroup::second_pass, InterGroup::last_group, InterGroup::exact_atomic}) {
        LaunchParams p;
        p.inter_group = l3;
        out.push_back(p);
    }
    for (FloatMode m : {FloatMode::atomic, FloatMode::compensated, FloatMode::correctly_rounded}) {
        LaunchParams p;
        p.float_mode = m;
        out.push_back(p);
    }
    LaunchParams shape;
    shape.times = 8;
    shape.work_group_size = 64;
    shape.stride = Stride::local;
    shape.vector_width = 2;
    out.push_back(shape);
    LaunchParams narrow;
    narrow.times = 1;
    narrow.work_group_size = 1;
    narrow.vector_width = 16;
    out.push_back(narrow);
    LaunchParams team;
    team.segment_team = 4;
    team.segment_loads = 4;
    out.push_back(team);
    LaunchParams medium;
    medium.experimental_segments.medium = 100;
    medium.segment_team = 4;
    out.push_back(medium);
    return out;
}

struct Collector {
    KernelSources sources = KernelSources::load();
    std::map<std::string, int> source_ids;
    std::set<std::string> seen;  // source id and options, loop counts left out
    std::vector<std::pair<int, std::string>> specs;

    void add(const KernelSpec& spec) {
        const std::string text = spec.source(sources);
        const auto [it, fresh] = source_ids.emplace(text, static_cast<int>(source_ids.size()));
        (void)fresh;
        const std::string options = spec.build_options();
        static const std::regex counts(" -DCLREDUCE_(TIMES|EXACT_COPIES|CHUNK|SEGMENT_MEDIUM)=[0-9]+");
        if (seen.insert(std::to_string(it->second) + std::regex_replace(options, counts, "")).second)
            specs.emplace_back(it->second, options);
    }
};

// What a specialisation covers: its program text with its element and accumulator types, and
// each -D option's value (loop counts left out) with the text and with the types.
std::vector<std::string> features(int source, const std::string& options) {
    static const std::regex define("-D(CLREDUCE_[A-Z0-9_]+)=(\\S+)");
    std::map<std::string, std::string> values;
    for (std::sregex_iterator m(options.begin(), options.end(), define), end; m != end; ++m) values[(*m)[1]] = (*m)[2];
    const std::string text = "source" + std::to_string(source);
    const std::string types = values["CLREDUCE_T"] + "/" + values["CLREDUCE_ACC"];
    std::vector<std::string> out{text + " " + types};
    for (const auto& [key, value] : values) {
        if (key == "CLREDUCE_TIMES" || key == "CLREDUCE_EXACT_COPIES" || key == "CLREDUCE_CHUNK" ||
            key == "CLREDUCE_SEGMENT_MEDIUM")
            continue;
        out.push_back(text + " " + key + "=" + value);
        out.push_back(types + " " + key + "=" + value);
    }
    return out;
}

// A covering subset of `specs` (greedy: each step keeps the one that covers the most features
// not yet covered), in their order.
std::vector<std::pair<int, std::string>> covering(const std::vector<std::pair<int, std::string>>& specs) {
    std::vector<std::vector<std::string>> covers;
    for (const auto& [source, options] : specs) covers.push_back(features(source, options));
    std::set<std::string> covered;
    const auto gain = [&](std::size_t i) {
        std::size_t g = 0;
        for (const auto& f : covers[i]) g += covered.count(f) == 0;
        return g;
    };
    // Lazy greedy: a spec's gain only falls as others are kept.
    std::priority_queue<std::pair<std::size_t, std::size_t>> queue;
    for (std::size_t i = 0; i < specs.size(); ++i) queue.push({covers[i].size(), specs.size() - i});
    std::vector<bool> kept(specs.size(), false);
    while (!queue.empty()) {
        const auto [old_gain, reversed] = queue.top();
        queue.pop();
        const std::size_t i = specs.size() - reversed;
        const std::size_t now = gain(i);
        if (now == 0) continue;
        if (now < old_gain && !queue.empty() && now < queue.top().first) {
            queue.push({now, reversed});
            continue;
        }
        kept[i] = true;
        covered.insert(covers[i].begin(), covers[i].end());
    }
    std::vector<std::pair<int, std::string>> out;
    for (std::size_t i = 0; i < specs.size(); ++i)
        if (kept[i]) out.push_back(specs[i]);
    return out;
}

const char* kTransform = "x * x + 1";
// A combine of the user's own (ops/user_combine.cl), valid in every accumulation type.
const char* kCombine = "max(a, b) + min(a, b)";

// The first launch's spec of a user combine's plan, as reducer.cpp makes it.
void add_user_combine(KernelSpec& first, const LaunchPlan& plan) {
    const std::string_view x = opencl_type_name(plan.expression_type);
    first.transform = kTransform;
    first.expression_type = plan.expression_type;
    first.combine = combine_source(kCombine, x);
    first.combine_identity = combine_identity("0", x).kernel_text;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: clreduce-kernel-specs <gfx90a|gfx1100|gfx942|spir64> <folder>\n";
        return 2;
    }
    try {
        const DeviceInfo device = describe(argv[1]);
        Collector out;
        const std::vector<LaunchParams> params = param_sets();
        std::uint64_t planned = 0;
        const auto each_plan = [&](const PlanRequest& request, auto&& make_specs) {
            for (const LaunchParams& p : params) {
                LaunchPlan plan;
                try {
                    plan = make_plan(request, device, p);
                } catch (const Error&) {
                    continue;  // refused for this device or request: nothing is built
                }
                ++planned;
                make_specs(plan, plan_kernel(plan));
            }
        };
        for (int e = 0; e <= static_cast<int>(ElementType::float16); ++e) {
            const ElementType element = static_cast<ElementType>(e);
            for (std::uint64_t n : {std::uint64_t(1000), std::uint64_t(1) << 24}) {
                for (int k = 0; k < operation_count; ++k) {
                    for (const bool transform : {false, true}) {
                        const Operation op = static_cast<Operation>(k);
                        if (transform && op != Operation::sum && op != Operation::product && op != Operation::min &&
                            op != Operation::max)
                            continue;
                        const auto range_specs = [&](CallForm form) {
                            each_plan(PlanRequest{op, element, n, form, transform},
                                      [&](const LaunchPlan& plan, const OpKernel& kernel) {
                                KernelSpec first = first_pass_spec(plan, kernel, device);
                                if (transform) {
                                    first.transform = kTransform;
                                    first.expression_type = plan.expression_type;
                                }
                                if (form == CallForm::async) {
                                    first.device_result = true;
                                    first.result_of(plan);
                                }
                                out.add(first);
                                if (first.finish == Finish::second_pass) out.add(second_pass_spec(plan, first, device));
                            });
                        };
                        range_specs(CallForm::sync);
                        if (!transform) range_specs(CallForm::async);
                        if (!transform) {
                            for (std::uint32_t channels : {1u, 3u}) {
                                PlanRequest image{op, element, n, CallForm::image};
                                image.channels = channels;
                                each_plan(image, [&](const LaunchPlan& plan, const OpKernel& kernel) {
                                    for (const bool masked : {false, true}) {
                                        for (const bool dense : {false, true}) {
                                            KernelSpec first = first_pass_spec(plan, kernel, device);
                                            first.pitched = true;
                                            first.masked = masked;
                                            first.all_channels = plan.channels_at_once && channels > 1;
                                            if (dense) read_dense_image(first, type_size(element));
                                            if (dense || first.all_channels) first.channels = channels;
                                            out.add(first);
                                            if (first.finish == Finish::second_pass)
                                                out.add(second_pass_spec(plan, first, device));
                                        }
                                    }
                                });
                            }
                        }
                        // Segments: batches, listed (offsets, ranges), columns, results into a
                        // device buffer.
                        for (int kind = 0; kind < 4; ++kind) {
                            if (kind == 3 && transform) continue;
                            PlanRequest segments{op, element, n, CallForm::segments, transform};
                            segments.segments = kind == 0 ? n / 100 : 3;
                            segments.listed = kind == 1 || kind == 3;
                            segments.device_results = kind == 3;
                            if (kind == 2) {
                                segments.columns = true;
                                segments.segments = 37;
                                segments.column_rows = n / 37;
                            }
                            each_plan(segments, [&](const LaunchPlan& plan, const OpKernel& kernel) {
                                KernelSpec first = segment_spec(plan, kernel, device, segments.listed, false);
                                if (transform) {
                                    first.transform = kTransform;
                                    first.expression_type = plan.expression_type;
                                }
                                if (segments.device_results && plan.groups_per_segment == 1) {
                                    first.device_result = true;
                                    first.result_of(plan);
                                }
                                out.add(first);
                                // reduce_by_key's one launch (exec/fused_by_key.hpp) of the
                                // operations it takes: every key size, aligned or not.
                                if (kind == 1 && !transform && fused_by_key_fits(plan, kernel, plan.accumulator))
                                    for (std::uint32_t key_size : {1u, 2u, 4u, 8u})
                                        for (const bool aligned : {false, true})
                                            out.add(by_key_spec(plan, kernel, device, key_size, aligned));
                                if (plan.groups_per_segment > 1) {
                                    KernelSpec combine = segment_spec(plan, kernel, device, false, true);
                                    if (segments.device_results) {
                                        combine.device_result = true;
                                        combine.result_of(plan);
                                    }
                                    out.add(combine);
                                }
                            });
                        }
                    }
                }
            }
        }
        // Combines of the user's own (planned as a product): ranges, batches and listed segments.
        for (int e = 0; e <= static_cast<int>(ElementType::float16); ++e) {
            const ElementType element = static_cast<ElementType>(e);
            for (std::uint64_t n : {std::uint64_t(1000), std::uint64_t(1) << 24}) {
                PlanRequest range{Operation::product, element, n, CallForm::sync, true};
                range.user_combine = true;
                each_plan(range, [&](const LaunchPlan& plan, const OpKernel& kernel) {
                    KernelSpec first = first_pass_spec(plan, kernel, device);
                    add_user_combine(first, plan);
                    out.add(first);
                    if (first.finish == Finish::second_pass) out.add(second_pass_spec(plan, first, device));
                });
                for (const bool listed : {false, true}) {
                    PlanRequest segments{Operation::product, element, n, CallForm::segments, true};
                    segments.user_combine = true;
                    segments.segments = listed ? 3 : n / 100;
                    segments.listed = listed;
                    each_plan(segments, [&](const LaunchPlan& plan, const OpKernel& kernel) {
                        KernelSpec first = segment_spec(plan, kernel, device, listed, false);
                        add_user_combine(first, plan);
                        out.add(first);
                        if (plan.groups_per_segment > 1) {
                            KernelSpec combine = segment_spec(plan, kernel, device, false, true);
                            combine.combine = first.combine;
                            combine.combine_identity = first.combine_identity;
                            out.add(combine);
                        }
                    });
                }
            }
        }
        // reduce_by_key's run heads (exec/run_heads.cpp), a program of its own: every key size.
        const auto heads = out.source_ids.emplace(out.sources.get("run_heads.cl"), int(out.source_ids.size())).first;
        std::vector<std::pair<int, std::string>> heads_specs;
        for (std::uint32_t key_size : {1u, 2u, 4u, 8u})
            heads_specs.emplace_back(heads->second, run_heads_options(key_size, 256));
        const std::string folder = argv[2];
        for (const auto& [text, id] : out.source_ids) {
            std::ofstream file(folder + "/source" + std::to_string(id) + ".cl");
            file << text;
            if (!file) throw Error("cannot write " + folder + "/source" + std::to_string(id) + ".cl");
        }
        auto kept = covering(out.specs);
        kept.insert(kept.end(), heads_specs.begin(), heads_specs.end());
        std::ofstream list(folder + "/specs.txt");
        for (const auto& [id, options] : kept) list << id << '\t' << options << '\n';
        if (!list) throw Error("cannot write " + folder + "/specs.txt");
        std::cout << argv[1] << ": " << planned << " plans, " << out.specs.size() << " distinct specialisations of "
                  << out.source_ids.size() << " program texts, " << kept.size() << " kept to cover them\n";
    } catch (const std::exception& e) {
        std::cerr << "clreduce-kernel-specs: " << e.what() << '\n';
        return 1;
    }
    return 0;
}
