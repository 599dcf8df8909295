#include "harness/exec/async_executor.h"

#include <string>

#include "harness/base/clock.h"
#include "harness/exec/async_records.h"
#include "harness/exec/async_run.h"
#include "harness/exec/run_context.h"

namespace lbb {

std::vector<StepMetric> async_metrics() {
  return {{"utilization", "busy time / (P x modelled time) over the step's stretch of the run"},
          {"modules_moved", "modules the predictive balancer moved in the step's stretch"}};
}

namespace {

// One run of the asynchronous executor: the context, the run's shared state (AsyncRun) built
// over it, and the records and figures taken from that state after the run.
class AsyncExecution : ModuleRunContext {
 public:
  AsyncExecution(Workload& workload, ModuleStore& store, const ExecutionPlan& plan, StepSink& sink)
      : ModuleRunContext(workload, store, plan, sink) {}
  ExecutionResult run(const ModuleGraph& graph, AsyncOrder order);
  double utilization = 0, moves_per_step = 0, idle_wall = 0;
};

ExecutionResult AsyncExecution::run(const ModuleGraph& graph, AsyncOrder order) {
  ExecutionResult result;
  const AsyncStart start = start_async(workload_, plan_, graph, result);
  KernelWork work(workload_, store_, emulation_, P_);
  AsyncRun run(work, graph, P_, start.owner, total_, start.predictive, order);
  double placed_at = 0;
  team_.run([&](int p) {
    team_.guard([&] {
      for (int m = 0; m < M_; ++m)
        if (start.owner[m] == p) store_.place(m);  // first touch by the owner
    });
    if (team_.single([&] { placed_at = wall_now(); })) run.processor(p);
  });
  run.rethrow_if_failed();
  const AsyncFigures figures = record_async_run(run, plan_, placed_at, sink_, result);
  utilization = figures.utilization;
  moves_per_step = figures.moves_per_step;
  for (int p = 0; p < P_; ++p) idle_wall += run.idle_wall(p);
  result.run_wall = wall_now() - run_start_;
  return result;
}

}  // namespace

ExecutionResult AsyncExecutor::run(Workload& workload, ModuleStore& store,
                                   const ExecutionPlan& plan, StepSink& sink) {
  const ModuleGraph graph = async_dependencies(workload, plan);
  AsyncExecution execution(workload, store, plan, sink);
  ExecutionResult result = execution.run(graph, order_);
  utilization_ = execution.utilization;
  moves_per_step_ = execution.moves_per_step;
  idle_wall_ = execution.idle_wall;
  return result;
}

std::string AsyncExecutor::name() const {
  return order_ == AsyncOrder::kArrival ? "async" : "async_modelled";
}

std::vector<StepMetric> AsyncExecutor::metrics() const {
  return async_metrics();
}

std::vector<WorkloadAttribute> AsyncExecutor::attributes() const {
  return {{"utilization", utilization_},
          {"modules_moved_per_step", moves_per_step_},
          {"idle_wall_total", idle_wall_}};
}

}  // namespace lbb
