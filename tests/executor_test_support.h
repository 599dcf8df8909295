#pragma once
// Fixtures the executor tests share: a sink that keeps every step record, and a plain plan.
#include <vector>

#include "harness/base/step_record.h"
#include "harness/exec/executor.h"

namespace lbb::testing {

struct CollectSteps final : StepSink {
  void on_step(const StepRecord& r) override { records.push_back(r); }
  std::vector<StepRecord> records;
};

// P processors of speed 1 on `topology`, every module's detail recorded.
inline ExecutionPlan plan_for(int P, int steps, const Topology& topology) {
  ExecutionPlan plan;
  plan.processors = P;
  plan.steps = steps;
  plan.topology = &topology;
  plan.speed.assign(P, 1.0);
  plan.record_modules = true;
  return plan;
}

}  // namespace lbb::testing
