// Property: a workload's result does not depend on where its modules ran. Each workload runs on
// 4 processors under every registered balancer (static ones as the initial partition, dynamic
// ones between steps) and under a reassigner that moves a third of the modules every step; the
// result must verify and match the run with no balancing.
#include <gtest/gtest.h>

#include <random>

#include "balancers/balancer.h"
#include "harness/exec/bsp_executor.h"
#include "harness/formats/trace_workload.h"
#include "tests/serial_driver.h"
#include "workloads/barnes_hut.h"
#include "workloads/matmul.h"
#include "workloads/trfd.h"

namespace lbb {
namespace {

// Moves about a third of the modules to random processors after every step.
class InvarianceReassigner final : public Balancer {
 public:
  Decision decide(const LoadView& v) override {
    Decision d{true, {v.owner.begin(), v.owner.end()}, 1};
    std::uniform_int_distribution<int> proc(0, v.processors() - 1);
    for (int m = 0; m < v.modules(); ++m)
      if (rng_() % 3 == 0) d.owner[m] = proc(rng_);
    return d;
  }

 private:
  std::mt19937_64 rng_{17};
};

struct Discard final : StepSink {
  void on_step(const StepRecord&) override {}
};

struct InvarianceCase {
  const char* name;
  std::vector<std::string_view> settings;
  int steps;
  // The workload's result, gathered from the states.
  std::vector<double> (*result)(Workload&, ModuleStates&);
};

std::vector<double> bodies(Workload& w, ModuleStates& s) {
  return dynamic_cast<BarnesHut&>(w).gather_bodies(s);
}
std::vector<double> product(Workload& w, ModuleStates& s) {
  return dynamic_cast<Matmul&>(w).gather_product(s);
}
std::vector<double> integrals(Workload& w, ModuleStates& s) {
  return dynamic_cast<Trfd&>(w).gather_lower(s);
}

const InvarianceCase kCases[] = {
    {"barnes_hut", {"particles=2000", "cells_per_side=4", "drift=1"}, 6, bodies},
    {"barnes_hut", {"particles=1500", "dimensions=3", "cells_per_side=3", "drift=1"}, 4, bodies},
    {"matmul", {"n=90", "r=40", "m=30", "block_rows=8"}, 3, product},
    {"trfd", {"n=10"}, 3, integrals},
};

struct InvarianceOutcome {
  Verification verification;
  std::vector<double> result;
  std::int64_t migrations = 0;
};

InvarianceOutcome run(const InvarianceCase& c, Balancer* initial, Balancer* dynamic) {
  const WorkloadInfo* info = find_workload_kind(c.name);
  Params given;
  for (auto kv : c.settings) set_param_from_text(info->params, kv, given);
  auto w = info->make(resolve_params(info->params, given));
  ModuleStore store(*w);
  const Topology topo(TopologyKind::kComplete, 4);
  ExecutionPlan plan;
  plan.processors = 4;
  plan.steps = c.steps;
  plan.topology = &topo;
  plan.speed.assign(4, 1.0);
  plan.initial = initial;
  plan.dynamic = dynamic;
  Discard sink;
  ExecutionResult x = BspExecutor().run(*w, store, plan, sink);
  return {w->verify(store, x.steps_run), c.result(*w, store), x.migrations};
}

void expect_same_values(const std::vector<double>& got, const std::vector<double>& want,
                        const std::string& label) {
  ASSERT_EQ(got.size(), want.size()) << label;
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    diff = std::max(diff, std::abs(got[i] - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  EXPECT_LE(diff, 1e-12 * scale) << label;
}

TEST(WorkloadInvariance, ResultDoesNotDependOnTheAssignment) {
  for (const InvarianceCase& c : kCases) {
    const std::string label = std::string(c.name) + " " + std::string(c.settings.front());
    const InvarianceOutcome reference = run(c, nullptr, nullptr);
    ASSERT_TRUE(reference.verification.passed) << label << ": " << reference.verification.detail;
    int balancers = 0;
    for (const BalancerInfo& info : balancer_registry()) {
      bool needs_settings = false;
      for (const ParamSpec& spec : info.params) needs_settings |= !spec.default_value.has_value();
      if (needs_settings || !info.make) continue;  // no defaults to run it with, or no object
      std::unique_ptr<Balancer> b = make_balancer(info.name, Params{});
      const bool is_static = info.kind() == BalancerKind::kStatic;
      const InvarianceOutcome o =
          run(c, is_static ? b.get() : nullptr, is_static ? nullptr : b.get());
      EXPECT_TRUE(o.verification.passed)
          << label << " / " << info.name << ": " << o.verification.detail;
      expect_same_values(o.result, reference.result, label + " / " + info.name);
      ++balancers;
    }
    EXPECT_GE(balancers, 3);
    InvarianceReassigner random;
    const InvarianceOutcome moved = run(c, nullptr, &random);
    EXPECT_GT(moved.migrations, 0) << label;
    EXPECT_TRUE(moved.verification.passed) << label << " / random: " << moved.verification.detail;
    expect_same_values(moved.result, reference.result, label + " / random reassignment");
  }
}

}  // namespace
}  // namespace lbb
