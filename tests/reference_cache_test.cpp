// Each problem's serial reference is computed once per invocation and shared by its runs, and
// every run is still verified against it: a corrupted run fails against a cached reference.
#include <gtest/gtest.h>

#include "harness/formats/trace_workload.h"
#include "harness/run/reference_cache.h"
#include "harness/run/runner.h"
#include "serial_driver.h"

namespace lbb {
namespace {

using testing::make_workload;
using testing::run_serially;

RunSpec trfd_spec(const std::string& balancer, int processors, const char* n = "n=8") {
  RunSpec spec;
  spec.workload = "trfd";
  const WorkloadInfo* info = find_workload_kind("trfd");
  Params p;
  set_param_from_text(info->params, n, p);
  spec.workload_params = resolve_params(info->params, p);
  spec.processors = processors;
  spec.steps = 2;
  spec.balancer.dynamic_name = balancer;
  spec.balancer.label = balancer.empty() ? "none" : balancer;
  return spec;
}

TEST(ReferenceCache, ComputedOnceForEveryRunOfAProblem) {
  const Provenance provenance = gather_provenance();
  std::vector<RunSpec> specs = {trfd_spec("", 2), trfd_spec("diffusion", 2), trfd_spec("", 3)};
  ReferenceCache cache;
  const int reps = 2;
  for (const RunSpec& s : specs)
    for (int r = 0; r < reps; ++r) cache.expect(s);
  const RunSpec other = trfd_spec("", 2, "n=10");  // another problem: its own reference
  cache.expect(other);
  EXPECT_EQ(cache.held(), 2u);
  for (const RunSpec& s : specs)
    for (int r = 0; r < reps; ++r) {
      const RunOutcome o = execute_run(s, r, nullptr, provenance, &cache);
      EXPECT_TRUE(o.ok()) << o.error << o.verification.detail;
    }
  EXPECT_EQ(cache.computed(), 1);
  EXPECT_TRUE(execute_run(other, 0, nullptr, provenance, &cache).ok());
  EXPECT_EQ(cache.computed(), 2);
  EXPECT_EQ(cache.held(), 0u);  // dropped after the last announced run of each problem
}

TEST(ReferenceCache, UnannouncedRunComputesItsOwn) {
  ReferenceCache cache;
  const RunSpec spec = trfd_spec("", 2);
  int calls = 0;
  auto compute = [&] {
    ++calls;
    return std::make_shared<const SerialReference>(2);
  };
  cache.take(spec, 2, compute);
  cache.take(spec, 2, compute);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(cache.held(), 0u);
}

// The cached reference is the first run's; a second run of the same problem whose state is
// corrupted fails against it, while an intact one passes.
void corrupted_run_fails(const std::string& workload, std::initializer_list<std::string_view> kv,
                         int steps, int module, std::size_t byte) {
  RunSpec spec;
  spec.workload = workload;
  ReferenceCache cache;
  cache.expect(spec);
  cache.expect(spec);
  cache.expect(spec);
  auto first = make_workload(workload, kv);
  auto take = [&] { return cache.take(spec, steps, [&] { return first->reference(steps); }); };
  const auto reference = take();
  for (bool corrupt : {false, true}) {
    auto w = make_workload(workload, kv);
    VectorModuleStates states(*w);
    run_serially(*w, states, 0, steps);
    int m = module;  // the first module holding the byte
    while (states.state(m).size() <= byte + sizeof(double)) ++m;
    if (corrupt) *reinterpret_cast<double*>(states.state(m).data() + byte) += 1e-6;
    const auto cached = take();
    EXPECT_EQ(cached.get(), reference.get());
    const Verification v = w->verify_against(states, steps, *cached);
    EXPECT_EQ(v.passed, !corrupt) << workload << ": " << v.detail;
  }
  EXPECT_EQ(cache.computed(), 1);
}

TEST(ReferenceCache, CorruptedRunFailsAgainstACachedReference) {
  // (pq|rs) with rs = 10, pq = 3: in the lower triangle
  corrupted_run_fails("trfd", {"n=12", "iterations_per_module=2"}, 2, 2, 32 + 3 * sizeof(double));
  // The first body's first velocity component
  corrupted_run_fails("barnes_hut", {"particles=600", "dimensions=2", "cells_per_side=2"}, 3, 0,
                      16 + 2 * sizeof(double));
}

TEST(ReferenceCache, ReferenceOfAnotherStepCountIsRefused) {
  auto w = make_workload("trfd", {"n=8"});
  VectorModuleStates states(*w);
  run_serially(*w, states, 0, 2);
  EXPECT_THROW(w->verify_against(states, 2, *w->reference(3)), std::invalid_argument);
  EXPECT_TRUE(w->verify_against(states, 2, *w->reference(2)).passed);
}

}  // namespace
}  // namespace lbb
