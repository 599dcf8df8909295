#include "harness/exec/async_records.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "balancers/between_steps/none.h"
#include "balancers/partition/block.h"
#include "core/assignment.h"
#include "harness/base/clock.h"
#include "harness/exec/load_view_builder.h"

namespace lbb {

std::string async_workload_problem(const Workload& workload) {
  const auto graph = workload.dependencies();
  if (!graph)
    return "an asynchronous run needs workloads that declare their module dependencies "
           "(block_substitution, or synthetic with dependencies: chain); this one needs "
           "bulk-synchronous steps";
  if (graph->modules() != workload.module_count() || workload.phases() != 1)
    return "asynchronous run: one phase and one graph vertex per module";
  return "";
}

ModuleGraph async_dependencies(const Workload& workload, const ExecutionPlan& plan) {
  if (std::string why = async_workload_problem(workload); !why.empty())
    throw std::invalid_argument(why);
  auto graph = workload.dependencies();
  if (plan.dynamic && !dynamic_cast<Predictive*>(plan.dynamic) &&
      !dynamic_cast<NoBalance*>(plan.dynamic))
    throw std::invalid_argument("an asynchronous run takes the predictive balancer or none");
  if (static_cast<int>(plan.speed.size()) != plan.processors || !plan.topology)
    throw std::invalid_argument("asynchronous run: a speed per processor and a topology");
  return *graph;
}

namespace {

// Records held at once: bounds the memory of a long run's records with per-module rows.
constexpr std::size_t kStepBurst = 64;

std::vector<int> initial_owner(const Workload& workload, const ExecutionPlan& plan,
                               const std::vector<double>& weights) {
  const int M = workload.module_count(), P = plan.processors;
  std::vector<int> owner = block_owners(M, P);
  if (plan.initial) {
    std::vector<std::uint64_t> bytes(M);
    for (int m = 0; m < M; ++m) bytes[m] = workload.state_bytes(m);
    const std::vector<double> coords = workload.module_coords();
    const LoadViewBuilder views(plan.speed, plan.topology, workload.structure(),
                                workload.dimensions(), coords);
    Decision d = plan.initial->decide(views.view(-1, ViewLoads(weights, bytes)));
    if (d.act) owner = std::move(d.owner);
  }
  if (auto err = assignment_error(owner, M, P))
    throw std::logic_error("initial partition: " + *err);
  return owner;
}

// Seconds of each kind of span (ClockSpan::Kind) at [step * P + p]: one allocation a kind, not
// one a step.
using SpansPerStep = std::array<std::vector<double>, 3>;

// The processors' modelled clock spans, cut at the ends of the steps, in one pass a processor:
// its spans follow its clock and the step ends ascend, so the first step a span falls in only
// moves forward (a binary search where a span would start earlier than the last).
SpansPerStep per_step(const AsyncRun& run, int P) {
  const std::vector<double>& end = run.step_end();
  const std::size_t n = end.size();
  SpansPerStep out;
  for (auto& kind : out) kind.assign(n * P, 0.0);
  for (int p = 0; p < P; ++p) {
    std::size_t first = 0;  // the first step that ends after the span's start
    double last_start = 0;
    for (const ClockSpan& span : run.spans(p)) {
      if (span.start < last_start)
        first = std::upper_bound(end.begin(), end.end(), span.start) - end.begin();
      while (first < n && end[first] <= span.start) ++first;
      last_start = span.start;
      std::vector<double>& o = out[span.kind];
      double from = span.start;
      std::size_t k = first;
      for (; from < span.end && k < n; ++k) {
        const double to = k + 1 == n ? span.end : std::min(span.end, end[k]);
        o[k * P + p] += to - from;
        from = to;
      }
      if (from < span.end && n > 0) o[(n - 1) * P + p] += span.end - from;
    }
  }
  return out;
}

struct StepTakes {
  std::vector<std::int64_t> count, bytes;
};

StepTakes takes_per_step(const AsyncRun& run) {
  const auto& end = run.step_end();
  StepTakes t{std::vector<std::int64_t>(end.size(), 0), std::vector<std::int64_t>(end.size(), 0)};
  for (const auto& take : run.takes()) {
    const auto k = std::min<std::size_t>(
        std::lower_bound(end.begin(), end.end(), take.when) - end.begin(), end.size() - 1);
    ++t.count[k];
    t.bytes[k] += static_cast<std::int64_t>(take.bytes);
  }
  return t;
}

// The records of the recorded steps. Step s's record covers the modelled time between the ends
// of steps s-1 and s (the moments the last module finished them): per processor its busy,
// decision and copy time in that stretch, idle the rest of it.
class AsyncRecords {
 public:
  AsyncRecords(const AsyncRun& run, const ExecutionPlan& plan, double run_start)
      : run_(run),
        plan_(plan),
        run_start_(run_start),
        spans_(per_step(run, plan.processors)),
        takes_(takes_per_step(run)) {
    for (int p = 0; p < plan.processors; ++p) external_load_.push_back(run.load(p).mean());
  }

  // Step s's record into r, whose vectors keep their capacity: a burst's records are reused for
  // the next burst's steps, every field set here and the others left as a fresh record has them.
  void fill(int s, StepRecord& r) const {
    const int P = plan_.processors;
    const auto& closed = run_.closed()[s];
    r.step = s - plan_.warmup;
    r.wall = closed.wall - (s > 0 ? run_.closed()[s - 1].wall : run_start_);
    r.compute_wall = r.wall;
    r.makespan = run_.step_end()[s] - (s > 0 ? run_.step_end()[s - 1] : 0.0);
    r.serial = closed.serial;
    row(ClockSpan::kModule, s, r.busy);
    r.busy_wall = r.busy;
    row(ClockSpan::kBalance, s, r.proc_balance);
    row(ClockSpan::kMigration, s, r.proc_migration);
    r.balance = *std::max_element(r.proc_balance.begin(), r.proc_balance.end());
    r.migrations = takes_.count[s];
    r.bytes_moved = takes_.bytes[s];
    double weighted = 0, speeds = 0, busy = 0;
    r.idle.clear();
    for (int p = 0; p < P; ++p) {
      weighted += r.busy[p] * plan_.speed[p];
      speeds += plan_.speed[p];
      busy += r.busy[p];
      r.idle.push_back(r.makespan - r.busy[p] - r.proc_balance[p] - r.proc_migration[p]);
    }
    r.external_load = external_load_;
    r.ideal = weighted / speeds;
    r.triggered.assign(P, 0);
    r.module_cost.clear();
    if (plan_.record_modules) {
      for (int m = 0; m < static_cast<int>(closed.owner.size()); ++m)
        r.module_cost.push_back(run_.module_cost(m, s));
      r.module_owner = closed.owner;
    }
    r.metrics = closed.metrics;
    r.metrics.push_back(r.makespan > 0 ? busy / (P * r.makespan) : 0.0);
    r.metrics.push_back(static_cast<double>(r.migrations));
  }

 private:
  void row(ClockSpan::Kind kind, int s, std::vector<double>& out) const {
    const auto first = spans_[kind].begin() + static_cast<std::ptrdiff_t>(s) * plan_.processors;
    out.assign(first, first + plan_.processors);
  }

  const AsyncRun& run_;
  const ExecutionPlan& plan_;
  double run_start_;
  SpansPerStep spans_;
  StepTakes takes_;
  std::vector<double> external_load_;  // per processor: its emulated load over the whole run
};

}  // namespace

AsyncStart start_async(const Workload& workload, const ExecutionPlan& plan,
                       const ModuleGraph& graph, ExecutionResult& result) {
  const std::vector<double> weights = workload.predicted_weights();
  const double c0 = thread_cpu_now();
  AsyncStart start{initial_owner(workload, plan, weights), dynamic_cast<Predictive*>(plan.dynamic)};
  // t_i, the time one step of a module takes, from the workload's cost model.
  if (start.predictive)
    start.predictive->start(graph, start.owner, weights, *plan.topology, plan.warmup + plan.steps);
  result.initial_partition_seconds = thread_cpu_now() - c0;
  return start;
}

AsyncFigures record_async_run(const AsyncRun& run, const ExecutionPlan& plan, double run_start,
                              StepSink& sink, ExecutionResult& result,
                              const std::function<void(int step, StepRecord&)>& amend) {
  const double c0 = thread_cpu_now(), handed = result.record_seconds;
  const AsyncRecords records(run, plan, run_start);
  const int total = plan.warmup + plan.steps;
  double busy = 0;
  const double recorded_start = plan.warmup > 0 ? run.step_end()[plan.warmup - 1] : 0;
  std::int64_t moved = 0;
  // The run is over: its steps are handed over in bursts, one journal write(2) a burst.
  std::vector<StepRecord> burst(std::min<std::size_t>(kStepBurst, std::max(plan.steps, 1)));
  std::size_t used = 0;
  for (int s = plan.warmup; s < total; ++s) {
    StepRecord& r = burst[used++];
    records.fill(s, r);
    if (amend) amend(s, r);
    for (double b : r.busy) busy += b;
    moved += r.migrations;
    if (used == burst.size() || s + 1 == total) {
      record_steps(sink, {burst.data(), used}, result.record_seconds);
      used = 0;
    }
  }
  AsyncFigures figures;
  const double span = run.step_end()[total - 1] - recorded_start;
  figures.utilization = span > 0 ? busy / (plan.processors * span) : 0;
  figures.moves_per_step = plan.steps > 0 ? static_cast<double>(moved) / plan.steps : 0;
  result.record_build_seconds += thread_cpu_now() - c0 - (result.record_seconds - handed);
  result.steps_run = total;
  result.migrations = static_cast<std::int64_t>(run.takes().size());
  for (const auto& t : run.takes()) result.bytes_moved += static_cast<std::int64_t>(t.bytes);
  result.final_owner = run.owner();
  result.final_phase_owner = {run.owner()};
  return figures;
}

}  // namespace lbb
