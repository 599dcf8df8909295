#pragma once
// The asynchronous semantics of Iqbal, Saltz & Bokhari 1986 under `execution.executor:
// simulate`: no barrier between steps, each module runs step s once every module it depends on
// (Workload::dependencies()) has finished step s-1, and the predictive balancer takes modules as
// processors run short. It is the async_modelled executor's discrete-event run (AsyncRun in
// AsyncOrder::kModelled: processors act in the order of their modelled clocks) with the kernel
// replaced by the cost source: the same balancer object, take rule, dependency rule and order.
// A module of nominal cost c takes c (1 + L) / s on a processor of speed s under external load L
// at its modelled start; a take is charged the decision (measured or modelled) and the copy
// (latency + bytes / bandwidth) on the taker's clock. Deterministic for a seed when decisions
// are modelled. No contention model and no in-step synchronisation here.
#include "harness/base/sim_settings.h"
#include "harness/exec/async_records.h"
#include "harness/sim/cost_stream.h"

namespace lbb {

struct SimAsyncOutcome {
  ExecutionResult result;
  AsyncFigures figures;
};

inline constexpr const char* kAsyncContentionProblem =
    "simulate: the contention model (sim_contention) is not simulated for asynchronous steps "
    "(the predictive balancer or execution.sim_async)";

// Throws std::invalid_argument for a workload without dependencies, a balancer other than the
// predictive one (or none), or a contention model.
SimAsyncOutcome run_sim_async(const Workload& workload, const ExecutionPlan& plan, StepSink& sink,
                              const SimSettings& settings, CostStream& costs);

}  // namespace lbb
