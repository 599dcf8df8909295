#pragma once
// One simulated run of a dynamic loop self-scheduling technique (balancers/in_step/
// loop_schedules.h), the self-scheduled executor's in-step schedules on modelled clocks: in every
// phase of every step each virtual processor, when its clock says it is idle, asks the technique
// for its next chunk of the modules left (in index order), pays sim_latency for the request (a
// message to the scheduler) and runs the chunk at its speed under its external load. A chunk's
// times reach the technique when the chunk ends on the modelled clock, so an adaptive technique
// knows only what a real run would know by then. Nothing migrates: module states are not modelled.
#include <vector>

#include "harness/base/schedule.h"
#include "harness/base/sim_settings.h"
#include "harness/exec/executor.h"
#include "harness/sim/cost_stream.h"

namespace lbb {

// schedule: kChunked. Step records as the simulator's (modelled makespan, its four charges
// after NaN workload metrics; the request latencies are its synchronisation charge).
ExecutionResult run_sim_schedule(Workload& workload, const ExecutionPlan& plan, StepSink& sink,
                                 const SimSettings& settings, CostStream& costs,
                                 const ScheduleChoice& schedule);

}  // namespace lbb
