#pragma once
// What every asynchronous run shares before and after its AsyncRun (harness/exec/async_run.h),
// real (harness/exec/async_executor.h) or simulated (harness/sim/sim_async_run.h): the checks
// of its inputs, the start (partition and the predictive balancer's DEPEND graphs), and the step
// records and whole-run figures taken from the run's modelled clocks.
#include <functional>
#include <string>
#include <vector>

#include "balancers/async/predictive.h"
#include "core/module_graph.h"
#include "harness/exec/async_run.h"
#include "harness/exec/executor.h"

namespace lbb {

// Why `workload` cannot run asynchronous steps ("" when it can): no module dependencies, or more
// than one phase. async_dependencies (at the run) and `validate` (the config's expansion) ask it.
std::string async_workload_problem(const Workload& workload);

// The workload's module dependencies; throws std::invalid_argument when it has none, has more
// than one phase, or the plan's dynamic balancer is neither the predictive one nor none.
ModuleGraph async_dependencies(const Workload& workload, const ExecutionPlan& plan);

struct AsyncStart {
  std::vector<int> owner;
  Predictive* predictive = nullptr;  // plan.dynamic when it is the predictive balancer
};

// The initial partition on the predicted weights (block without plan.initial), and the
// predictive balancer started on it with those weights as t_i. Its CPU time goes to
// result.initial_partition_seconds.
AsyncStart start_async(const Workload& workload, const ExecutionPlan& plan,
                       const ModuleGraph& graph, ExecutionResult& result);

// Of the recorded steps: busy / (P x modelled time), and module takes per step.
struct AsyncFigures {
  double utilization = 0, moves_per_step = 0;
};

// Hands the recorded steps' records to the sink, each after `amend` (the executor's own figures,
// appended to its metrics), and fills the result's whole-run counts. run_start: the wall clock
// (or modelled time) the run started at.
AsyncFigures record_async_run(const AsyncRun& run, const ExecutionPlan& plan, double run_start,
                              StepSink& sink, ExecutionResult& result,
                              const std::function<void(int step, StepRecord&)>& amend = {});

}  // namespace lbb
