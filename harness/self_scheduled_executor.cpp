#include "harness/self_scheduled_executor.h"

#include <omp.h>

#include <algorithm>
#include <exception>
#include <stdexcept>
#include <string>

#include "harness/clock.h"
#include "harness/emulated_run.h"
#include "harness/omp_team.h"
#include "harness/step_measurement.h"
#include "kernels/blas_threads.h"

namespace lbb {

namespace {

// One run of one phase of one module, as the thread that ran it timed it.
struct ModuleRun {
  int module = 0;
  int phase = 0;
  double wall = 0;  // s, emulation included
};

// The runs of one thread in the current step, padded against false sharing.
struct alignas(64) ThreadRuns {
  std::vector<ModuleRun> runs;
};

}  // namespace

std::vector<StepMetric> self_scheduled_metrics() {
  return {{"remote_runs",
           "module runs (one per module and phase) on a thread other than the one holding the "
           "module's state"}};
}

SelfScheduledExecutor::SelfScheduledExecutor(InStepSchedule schedule, int chunk)
    : schedule_(schedule), chunk_(chunk) {
  if (schedule == InStepSchedule::kAssigned)
    throw std::invalid_argument("self-scheduled executor: no schedule given");
  if (chunk < 1) throw std::invalid_argument("self-scheduled executor: chunk must be >= 1");
}

ExecutionResult SelfScheduledExecutor::run(Workload& workload, ModuleStore& store,
                                           const ExecutionPlan& plan, StepSink& sink) {
  const int P = plan.processors;
  const int M = workload.module_count();
  const int phases = workload.phases();
  const int total = plan.warmup + plan.steps;
  if (P < 1 || static_cast<int>(plan.speed.size()) != P)
    throw std::invalid_argument("self-scheduled executor: processors and speeds disagree");
  if (plan.initial || plan.dynamic || !plan.later_phase_dynamic.empty())
    throw std::invalid_argument("self-scheduled executor: a schedule takes no balancer");
  kernels::use_one_blas_thread();
  ExecutionResult result;
  remote_runs_ = 0;
  const double run_start = wall_now();
  const PlatformEmulation emulation(plan.speed, plan.external_load, run_start);
  if (emulation.active()) busy_work_rate();  // calibrate before the first timed step

  const InStepSchedule schedule = schedule_;
  const int chunk = chunk_;
  std::vector<int> home(M, -1);            // the thread that placed each module's state
  std::vector<std::vector<int>> homed(P);  // modules by home: what omp_tasks threads spawn
  std::vector<ProcessorStep> procs(P);
  std::vector<ThreadRuns> runs(P);
  for (ThreadRuns& r : runs)  // room for a whole step: no allocation inside a timed step
    r.runs.reserve(static_cast<std::size_t>(phases) * M);
  // Per (phase, module) of the current step, gathered from the threads' runs.
  std::vector<int> run_count(static_cast<std::size_t>(phases) * M), runner(run_count.size());
  std::vector<double> run_wall(run_count.size());
  StepRecord rec;
  bool abort = false;
  std::exception_ptr error;

  auto fail = [&](std::exception_ptr e) {
#pragma omp critical(lbb_self_scheduled_error)
    if (!error) error = e;
  };

  // Phase ph of step s of module m on thread q; never throws (OpenMP constructs must not be
  // left by an exception).
  auto run_module = [&](int m, int s, int ph, int q) {
    try {
      const double wall = run_emulated(emulation, q, procs[q].load,
                                       [&] { workload.run_module(m, s, ph, store.state(m)); });
      runs[q].runs.push_back({m, ph, wall});
      procs[q].busy_wall += wall;
    } catch (...) {
      fail(std::current_exception());
    }
  };

  // Gathers the threads' runs of step s, checks that each phase ran every module exactly once
  // and returns how many runs were remote.
  auto gather_runs = [&](int s) {
    std::fill(run_count.begin(), run_count.end(), 0);
    std::int64_t remote = 0;
    for (int q = 0; q < P; ++q)
      for (const ModuleRun& r : runs[q].runs) {
        const std::size_t i = static_cast<std::size_t>(r.phase) * M + r.module;
        ++run_count[i];
        runner[i] = q;
        run_wall[i] = r.wall;
        remote += home[r.module] != q;
      }
    for (std::size_t i = 0; i < run_count.size(); ++i)
      if (run_count[i] != 1)
        throw std::logic_error("module " + std::to_string(i % M) + " ran " +
                               std::to_string(run_count[i]) + " times in phase " +
                               std::to_string(i / M) + " of step " + std::to_string(s));
    return remote;
  };

  // Module costs and who ran each module, from the gathered runs. As in the bulk-synchronous
  // executor, a thread's wall times shrink by its CPU/wall ratio when preemption inflated them.
  auto record_modules = [&]() {
    std::vector<double> scale(P, 1.0);
    for (int q = 0; q < P; ++q)
      if (procs[q].busy_wall > rec.busy[q] && procs[q].busy_wall > 0)
        scale[q] = rec.busy[q] / procs[q].busy_wall;
    rec.module_cost.assign(M, 0.0);
    for (int ph = 0; ph < phases; ++ph)
      for (int m = 0; m < M; ++m) {
        const std::size_t i = static_cast<std::size_t>(ph) * M + m;
        rec.module_cost[m] += run_wall[i] * scale[runner[i]];
      }
    // Who ran each module in the first phase, as the bulk-synchronous executor records it.
    rec.module_owner.assign(runner.begin(), runner.begin() + M);
  };

  // Empties every thread's measurements for the next step.
  auto clear_slots = [&]() {
    for (int q = 0; q < P; ++q) {
      procs[q].clear(phases);
      runs[q].runs.clear();
    }
  };

#pragma omp parallel num_threads(P)
  {
    const int p = omp_get_thread_num();
    // Placement by the static distribution: the thread schedule(static) gives a module to
    // touches its state first.
#pragma omp for schedule(static)
    for (int m = 0; m < M; ++m) {
      try {
        store.place(m);
        home[m] = p;
      } catch (...) {
        fail(std::current_exception());
      }
    }
#pragma omp single
    {
      if (error || !store.complete()) abort = true;
      if (auto team = team_size_error(P)) {
        abort = true;
        if (!error) error = std::make_exception_ptr(std::runtime_error(*team));
      }
      for (int m = 0; m < M && !abort; ++m) homed[home[m]].push_back(m);
      clear_slots();
    }
    for (int s = 0; s < total && !abort; ++s) {
      // The slots were cleared inside the last single section: a thread still leaving its
      // barrier may already be running tasks of this step.
      ProcessorStep& mine = procs[p];
      mine.start = wall_now();
      // Every phase of the step, each ending in a barrier; busy time is thread CPU time of work.
      for (int ph = 0; ph < phases; ++ph) {
        const double c0 = thread_cpu_now();
        if (schedule == InStepSchedule::kOmpTasks) {
          // Tasks also run inside the barrier, where a thread's CPU time cannot tell work from
          // waiting: each task adds its own thread CPU time to the thread that ran it.
          const double before = mine.phase_cpu[ph];
          for (int m : homed[p]) {
#pragma omp task firstprivate(m, s, ph)
            {
              const int q = omp_get_thread_num();
              const double t0 = thread_cpu_now();
              run_module(m, s, ph, q);
              procs[q].phase_cpu[ph] += thread_cpu_now() - t0;
              procs[q].end = std::max(procs[q].end, wall_now());
            }
          }
          // Creating the tasks is work too; tasks the runtime ran here meanwhile (undeferred
          // when its queue is long) have counted themselves.
          const double ran_here = mine.phase_cpu[ph] - before;
          mine.phase_cpu[ph] += thread_cpu_now() - c0 - ran_here;
          mine.end = std::max(mine.end, wall_now());
        } else {
          // The loop's chunk hand-out is work too; waiting happens only at the barrier.
          switch (schedule) {
            case InStepSchedule::kOmpStatic:
#pragma omp for schedule(static) nowait
              for (int m = 0; m < M; ++m) run_module(m, s, ph, p);
              break;
            case InStepSchedule::kOmpDynamic:
#pragma omp for schedule(dynamic, chunk) nowait
              for (int m = 0; m < M; ++m) run_module(m, s, ph, p);
              break;
            case InStepSchedule::kOmpGuided:
#pragma omp for schedule(guided, chunk) nowait
              for (int m = 0; m < M; ++m) run_module(m, s, ph, p);
              break;
            case InStepSchedule::kOmpTasks:
            case InStepSchedule::kAssigned:
              break;
          }
          mine.phase_cpu[ph] = thread_cpu_now() - c0;
          mine.end = std::max(mine.end, wall_now());
        }
#pragma omp barrier
      }
#pragma omp single
      {
        try {
          if (error) throw std::runtime_error("a module failed");
          const std::int64_t remote = gather_runs(s);
          const double sw = wall_now(), sc = thread_cpu_now();
          workload.finish_step(s, store);
          rec.serial = thread_cpu_now() - sc;
          const double serial_wall = wall_now() - sw;
          if (s >= plan.warmup) {
            rec.step = s - plan.warmup;
            record_compute(procs, plan.speed, rec);
            record_makespan(procs, rec);
            rec.wall = rec.compute_wall + serial_wall;
            rec.metrics = workload.step_metric_values(s);
            rec.metrics.push_back(static_cast<double>(remote));
            if (plan.record_modules) record_modules();
            remote_runs_ += remote;
            const double t0 = wall_now();
            sink.on_step(rec);
            result.record_seconds += wall_now() - t0;
          }
          clear_slots();
        } catch (...) {
          if (!error) error = std::current_exception();
          abort = true;
        }
      }
    }
  }
  if (error) std::rethrow_exception(error);
  if (!store.complete()) throw std::logic_error("a module lost its state");
  result.steps_run = total;
  result.final_owner = home;
  result.final_phase_owner.assign(phases, home);
  result.run_wall = wall_now() - run_start;
  return result;
}

}  // namespace lbb
