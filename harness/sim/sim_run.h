#pragma once
// The step protocol (harness/exec/step_protocol.h) on simulated processors: modules run for the
// costs a CostStream gives, at their processors' speeds and loads, stretched by contention; an
// in-step group runs in rounds on modelled clocks; decisions, moves and the ranks' exchanges are
// charged as SimSettings says (harness/sim/simulate_executor.h).
// Under a loop self-scheduling technique (balancers/in_step/loop_schedules.h; `schedule` given,
// kChunked) each phase's modules are handed out instead: each virtual processor, when its clock
// says it is idle, asks the technique for its next chunk of the modules left (in index order),
// pays sim_latency for the request (its synchronisation charge) and runs the chunk at its speed
// under its external load; a chunk's times reach the technique when it ends on the modelled
// clock, so an adaptive technique knows only what a real run would know by then. Nothing
// migrates then: module states are not modelled.
#include "harness/base/schedule.h"
#include "harness/base/sim_settings.h"
#include "harness/exec/executor.h"
#include "harness/sim/cost_stream.h"

namespace lbb {

ExecutionResult run_simulated_steps(Workload& workload, const ExecutionPlan& plan, StepSink& sink,
                                    const SimSettings& settings, CostStream& costs,
                                    const ScheduleChoice* schedule = nullptr);

}  // namespace lbb
