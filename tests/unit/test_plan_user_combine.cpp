// The planner and the kernel spec of a combine of the user's own, on described devices: level 3
// is never atomic (last group where the device has its fence, else a second pass), the
// refusals are InvalidArgument, and every launch of the plan carries the combine. Host only.
#include "test_support.hpp"

#include <catch2/catch.hpp>
#include "kernels/kernel_source.hpp"  // src/
#include "kernels/kernel_spec.hpp"    // src/
#include "plan/planner.hpp"           // src/
#include "transform/combine.hpp"      // src/

using namespace clreduce;

namespace {

PlanRequest user_combine(ElementType element, std::uint64_t n, CallForm form = CallForm::sync) {
    PlanRequest r{Operation::product, element, n, form, true};
    r.user_combine = true;
    return r;
}

}  // namespace

TEST_CASE("a user combine never finishes atomically", "[combine][plan]") {
    const DeviceInfo nvidia = test::fake_gpu();
    DeviceInfo other = test::fake_gpu();
    other.is_nvidia = false;
    other.name = "fake non-NVIDIA GPU";
    for (ElementType element : {ElementType::int32, ElementType::uint64, ElementType::float32, ElementType::float64})
        for (std::uint64_t n : {std::uint64_t(1) << 10, std::uint64_t(1) << 26}) {
            INFO(type_name(element) << " n " << n);
            // The sum of the same data finishes atomically (integers) or exactly (floats).
            CHECK(make_plan(Operation::sum, element, n, nvidia).inter_group !=
                  make_plan(user_combine(element, n), nvidia).inter_group);
            const LaunchPlan plan = make_plan(user_combine(element, n), nvidia);
            CHECK(plan.user_combine);
            CHECK(plan.inter_group == InterGroup::last_group);
            CHECK(plan_kernel(plan).op == KernelOp::user_combine);
            CHECK(plan.exact_integer_bits == 0);  // the accumulator is the expression's type
            CHECK(plan.reproducibility == Reproducibility::same_plan);
            CHECK(make_plan(user_combine(element, n), other).inter_group == InterGroup::second_pass);
        }
    for (InterGroup atomic : {InterGroup::atomic, InterGroup::exact_atomic})
        for (CallForm form : {CallForm::sync, CallForm::host_data, CallForm::segments}) {
            LaunchParams p;
            p.inter_group = atomic;
            CHECK_THROWS_AS(make_plan(user_combine(ElementType::int32, 1000, form), nvidia, p), InvalidArgument);
        }
    for (FloatMode mode : {FloatMode::atomic, FloatMode::compensated, FloatMode::correctly_rounded}) {
        LaunchParams p;
        p.float_mode = mode;
        CHECK_THROWS_AS(make_plan(user_combine(ElementType::float32, 1000), nvidia, p), InvalidArgument);
    }
}

TEST_CASE("every launch of a user combine's plan carries the combine and its identity", "[combine][plan]") {
    const DeviceInfo nvidia = test::fake_gpu();
    LaunchParams p;
    p.inter_group = InterGroup::second_pass;
    const LaunchPlan plan = make_plan(user_combine(ElementType::int32, 1 << 20), nvidia, p);
    KernelSpec first = first_pass_spec(plan, plan_kernel(plan), nvidia);
    first.transform = "x";
    first.expression_type = plan.expression_type;
    first.combine = combine_source("max(a, b)", "long");
    first.combine_identity = combine_identity("-9223372036854775808", "long").kernel_text;
    // The last warp's shuffle stays: a combine is pure and cannot fault (docs/expression-language.md).
    CHECK(first.wavefront > 1);
    const KernelSpec second = second_pass_spec(plan, first, nvidia);
    CHECK(second.op == KernelOp::user_combine);
    CHECK(second.combine == first.combine);
    CHECK(second.combine_identity == first.combine_identity);
    const KernelSources sources = KernelSources::load();
    for (const KernelSpec* spec : {static_cast<const KernelSpec*>(&first), &second}) {
        const std::string text = spec->source(sources);
        CHECK(text.find("inline CLREDUCE_X clreduce_user_combine(CLREDUCE_X a, CLREDUCE_X b) { return "
                        "CLREDUCE_TO_X((max(a, b))); }") != std::string::npos);
        CHECK(text.find("#define CLREDUCE_USER_IDENTITY ((long)(-9223372036854775807L - 1L))") != std::string::npos);
    }
    // Another combine or identity is another program.
    KernelSpec other = first;
    other.combine_identity = combine_identity("0", "long").kernel_text;
    CHECK_FALSE(other == first);
}
