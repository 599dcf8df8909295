#pragma once
// The step protocol (harness/exec/step_protocol.h) on simulated processors: modules run for the
// costs a CostStream gives, at their processors' speeds and loads, stretched by contention; an
// in-step group runs in rounds on modelled clocks; decisions, moves and the ranks' exchanges are
// charged as SimSettings says (harness/sim/simulate_executor.h).
#include "harness/base/sim_settings.h"
#include "harness/exec/executor.h"
#include "harness/sim/cost_stream.h"

namespace lbb {

ExecutionResult run_simulated_steps(Workload& workload, const ExecutionPlan& plan, StepSink& sink,
                                    const SimSettings& settings, CostStream& costs);

}  // namespace lbb
