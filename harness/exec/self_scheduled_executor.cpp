#include "harness/exec/self_scheduled_executor.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "harness/base/clock.h"
#include "harness/exec/chunk_dispenser.h"
#include "harness/exec/emulated_run.h"
#include "harness/exec/run_context.h"
#include "harness/exec/schedule_loop.h"

namespace lbb {

namespace {

// One run of one phase of one module, as the thread that ran it timed it.
struct ModuleRun {
  int module = 0;
  int phase = 0;
  double wall = 0;  // s, emulation included
  double cpu = 0;   // s, thread CPU time, where threads outnumber cores (else 0)
};

// The runs of one thread in the current step, padded against false sharing.
struct alignas(64) ThreadRuns {
  std::vector<ModuleRun> runs;
  std::vector<StretchClock> phase_clocks;  // its loop's CPU time, per phase (clock.h)
};

// One run of the self-scheduled executor: the state its steps share, and the steps by name.
class SelfScheduledRun : ModuleRunContext {
 public:
  SelfScheduledRun(const ScheduleChoice& schedule, Workload& workload, ModuleStore& store,
                   const ExecutionPlan& plan, StepSink& sink);
  ExecutionResult run();
  std::int64_t remote_runs() const { return remote_runs_; }

 private:
  void place(int p);
  void home_modules();
  void run_phase(int p, int s, int ph);
  void spawn_phase(int p, int s, int ph);
  double run_module(int m, int s, int ph, int q);
  void close_step(int s);
  std::int64_t gather_runs(int s);
  void record_modules();
  void clear();

  const InStepSchedule schedule_;
  const int chunk_;
  // Where threads outnumber cores a module's wall time holds other threads' time slices, which
  // a thread-wide CPU/wall ratio spreads over all its modules: each module's own CPU time instead.
  const bool cpu_module_costs_;
  std::unique_ptr<ChunkDispenser> chunks_;  // kChunked: the technique's hand-out
  ExecutionResult result_;
  std::vector<int> home_;                // the thread that placed each module's state
  std::vector<std::vector<int>> homed_;  // modules by home: what omp_tasks threads spawn
  std::vector<ThreadRuns> runs_;
  // Per (phase, module) of the current step, gathered from the threads' runs.
  std::vector<int> run_count_, runner_;
  std::vector<double> run_wall_, run_cpu_;
  StepRecord rec_;
  std::int64_t remote_runs_ = 0;
};

SelfScheduledRun::SelfScheduledRun(const ScheduleChoice& schedule, Workload& workload,
                                   ModuleStore& store, const ExecutionPlan& plan, StepSink& sink)
    : ModuleRunContext(workload, store, plan, sink),
      schedule_(schedule.kind),
      chunk_(schedule.chunk),
      cpu_module_costs_(team_.outnumbers_cores()),
      chunks_(
          schedule.kind == InStepSchedule::kChunked
              ? std::make_unique<ChunkDispenser>(schedule.technique, schedule.params, plan.speed)
              : nullptr),
      home_(M_, -1),
      homed_(P_),
      runs_(P_),
      run_count_(static_cast<std::size_t>(phases_) * M_),
      runner_(run_count_.size()),
      run_wall_(run_count_.size()),
      run_cpu_(run_count_.size()) {
  for (ThreadRuns& r : runs_) {  // room for a whole step: no allocation inside a timed step
    r.runs.reserve(static_cast<std::size_t>(phases_) * M_);
    r.phase_clocks.assign(phases_, StretchClock(team_.outnumbers_cores()));
  }
}

ExecutionResult SelfScheduledRun::run() {
  team_.run([&](int p) {
    place(p);
    if (!team_.single([&] { home_modules(); })) return;
    for (int s = 0; s < total_; ++s) {
      // The times were cleared inside the last serial barrier: a thread still leaving it
      // may already be running tasks of this step.
      recorder_.processor(p).start = wall_now();
      for (int ph = 0; ph < phases_; ++ph) {
        run_phase(p, s, ph);
        const bool last = ph + 1 == phases_;
        if (schedule_ == InStepSchedule::kOmpTasks) {
#pragma omp barrier
          if (!last) continue;  // the phase's tasks all ran inside OpenMP's barrier
        }
        if (!team_.serial_barrier([&] {
              if (last) close_step(s);
              if (chunks_) chunks_->start(M_, wall_now());  // the next phase's loop
            }))
          return;
      }
    }
  });
  if (!store_.complete()) throw std::logic_error("a module lost its state");
  result_.steps_run = total_;
  result_.work = recorder_.work();
  result_.final_owner = home_;
  result_.final_phase_owner.assign(phases_, home_);
  result_.run_wall = wall_now() - run_start_;
  return std::move(result_);
}

// Placement by the static distribution: the thread schedule(static) gives a module to touches
// its state first. Ends in the loop's barrier.
void SelfScheduledRun::place(int p) {
  const double c0 = thread_cpu_now();
#pragma omp for schedule(static) nowait
  for (int m = 0; m < M_; ++m)
    team_.guard([&] {
      store_.place(m);
      home_[m] = p;
    });
  const double placing = thread_cpu_now() - c0;
#pragma omp atomic
  result_.placement += placing;
#pragma omp barrier
}

void SelfScheduledRun::home_modules() {
  if (!store_.complete()) throw std::logic_error("a module lost its state");
  for (int m = 0; m < M_; ++m) homed_[home_[m]].push_back(m);
  if (chunks_) chunks_->start(M_, wall_now());
  clear();
}

// Phase ph of step s on thread p; busy time is thread CPU time of work (waiting happens only at
// the barrier after it).
void SelfScheduledRun::run_phase(int p, int s, int ph) {
  if (schedule_ == InStepSchedule::kOmpTasks) return spawn_phase(p, s, ph);
  ProcessorTimes& me = recorder_.processor(p);
  StretchClock& clock = runs_[p].phase_clocks[ph];
  clock.start();
  // The loop's chunk hand-out is work too.
  if (chunks_)
    take_chunks(*chunks_, p, [&](int m) { return run_module(m, s, ph, p); });
  else
    scheduled_loop(schedule_, chunk_, M_, [&](int m) { run_module(m, s, ph, p); });
  me.phase[ph].busy = me.phase[ph].finish = clock.stop();
  me.end = std::max(me.end, wall_now());
}

// Tasks also run inside the barrier, where a thread's CPU time cannot tell work from waiting:
// each task adds its own thread CPU time to the thread that ran it.
void SelfScheduledRun::spawn_phase(int p, int s, int ph) {
  ProcessorTimes& me = recorder_.processor(p);
  const double c0 = thread_cpu_now();
  const double before = me.phase[ph].busy;
  for (int m : homed_[p]) {
#pragma omp task firstprivate(m, s, ph)
    {
      const int q = omp_get_thread_num();
      ProcessorTimes& runner = recorder_.processor(q);
      const double t0 = thread_cpu_now();
      run_module(m, s, ph, q);
      runner.phase[ph].busy += thread_cpu_now() - t0;
      runner.phase[ph].finish = runner.phase[ph].busy;
      runner.end = std::max(runner.end, wall_now());
    }
  }
  // Creating the tasks is work too; tasks the runtime ran here meanwhile (undeferred when its
  // queue is long) have counted themselves.
  const double ran_here = me.phase[ph].busy - before;
  me.phase[ph].busy += thread_cpu_now() - c0 - ran_here;
  me.phase[ph].finish = me.phase[ph].busy;
  me.end = std::max(me.end, wall_now());
}

// Phase ph of step s of module m on thread q, its wall seconds; never throws (OpenMP constructs
// must not be left by an exception).
double SelfScheduledRun::run_module(int m, int s, int ph, int q) {
  double wall = 0;
  team_.guard([&] {
    ProcessorTimes& t = recorder_.processor(q);
    const double c0 = cpu_module_costs_ ? thread_cpu_now() : 0.0;
    wall = run_emulated(emulation_, q, t.load,
                        [&] { workload_.run_module(m, s, ph, store_.state(m)); });
    const double cpu = cpu_module_costs_ ? thread_cpu_now() - c0 : 0.0;
    runs_[q].runs.push_back({m, ph, wall, cpu});
    t.busy_wall += wall;
  });
  return wall;
}

// After the barrier of step s's last phase, on one thread: the workload's end of step, then the
// step's record.
void SelfScheduledRun::close_step(int s) {
  const std::int64_t remote = gather_runs(s);
  const double sc = thread_cpu_now();
  workload_.finish_step(s, store_);
  const double serial = thread_cpu_now() - sc;
  recorder_.close(rec_, serial, wall_now() - recorder_.first_start());  // warm-up too: work()
  if (s >= plan_.warmup) {
    rec_.step = s - plan_.warmup;
    rec_.metrics = workload_.step_metric_values(s);
    if (chunks_ && chunks_->selected() >= 0) rec_.metrics.push_back(chunks_->selected());
    rec_.metrics.push_back(static_cast<double>(remote));
    if (plan_.record_modules) record_modules();
    remote_runs_ += remote;
    record_step(sink_, rec_, result_.record_seconds);
  }
  clear();
}

// Gathers the threads' runs of step s, checks that each phase ran every module exactly once and
// returns how many runs were remote.
std::int64_t SelfScheduledRun::gather_runs(int s) {
  std::fill(run_count_.begin(), run_count_.end(), 0);
  std::int64_t remote = 0;
  for (int q = 0; q < P_; ++q)
    for (const ModuleRun& r : runs_[q].runs) {
      const std::size_t i = static_cast<std::size_t>(r.phase) * M_ + r.module;
      ++run_count_[i];
      runner_[i] = q;
      run_wall_[i] = r.wall;
      run_cpu_[i] = r.cpu;
      remote += home_[r.module] != q;
    }
  for (std::size_t i = 0; i < run_count_.size(); ++i)
    if (run_count_[i] != 1)
      throw std::logic_error("module " + std::to_string(i % M_) + " ran " +
                             std::to_string(run_count_[i]) + " times in phase " +
                             std::to_string(i / M_) + " of step " + std::to_string(s));
  return remote;
}

// Module costs and who ran each module, from the gathered runs. As in the bulk-synchronous
// executor, a thread's wall times shrink by its CPU/wall ratio when preemption inflated them,
// or, where threads outnumber cores, each module's thread CPU time is its cost.
void SelfScheduledRun::record_modules() {
  std::vector<double> scale(P_, 1.0);
  for (int q = 0; q < P_; ++q) {
    const double wall = recorder_.processor(q).busy_wall;
    if (wall > rec_.busy[q] && wall > 0) scale[q] = rec_.busy[q] / wall;
  }
  rec_.module_cost.assign(M_, 0.0);
  if (phases_ > 1) rec_.phase_module_cost.resize(run_wall_.size());
  for (int ph = 0; ph < phases_; ++ph)
    for (int m = 0; m < M_; ++m) {
      const std::size_t i = static_cast<std::size_t>(ph) * M_ + m;
      const double cost = cpu_module_costs_ ? run_cpu_[i] : run_wall_[i] * scale[runner_[i]];
      rec_.module_cost[m] += cost;
      if (phases_ > 1) rec_.phase_module_cost[i] = cost;
    }
  // Who ran each module in the first phase, as the bulk-synchronous executor records it; of
  // several phases, each phase's too (what a replay of each phase needs).
  rec_.module_owner.assign(runner_.begin(), runner_.begin() + M_);
  if (phases_ > 1) rec_.phase_module_owner = runner_;
}

void SelfScheduledRun::clear() {
  recorder_.clear();
  for (ThreadRuns& r : runs_) r.runs.clear();
}

}  // namespace

SelfScheduledExecutor::SelfScheduledExecutor(ScheduleChoice schedule)
    : schedule_(std::move(schedule)) {
  if (schedule_.kind == InStepSchedule::kAssigned)
    throw std::invalid_argument("self-scheduled executor: no schedule given");
  if (schedule_.chunk < 1)
    throw std::invalid_argument("self-scheduled executor: chunk must be >= 1");
}

std::string SelfScheduledExecutor::name() const {
  for (const ScheduleInfo& info : schedule_registry())
    if (info.kind == schedule_.kind &&
        (info.kind != InStepSchedule::kChunked || info.technique == schedule_.technique))
      return info.name;
  return "self_scheduled";
}

// auto4omp's choice before remote_runs, as close_step records them.
std::vector<StepMetric> SelfScheduledExecutor::metrics() const {
  std::vector<StepMetric> all;
  if (schedule_.kind == InStepSchedule::kChunked && schedule_.technique == LoopTechnique::kAuto4OMP)
    all.push_back(schedule_choice_metric());
  all.push_back({"remote_runs",
                 "module runs (one per module and phase) on a thread other than the one holding "
                 "the module's state"});
  return all;
}

std::vector<WorkloadAttribute> SelfScheduledExecutor::attributes() const {
  return {{"remote_runs", static_cast<double>(remote_runs_)}};
}

ExecutionResult SelfScheduledExecutor::run(Workload& workload, ModuleStore& store,
                                           const ExecutionPlan& plan, StepSink& sink) {
  if (plan.processors < 1 || static_cast<int>(plan.speed.size()) != plan.processors)
    throw std::invalid_argument("self-scheduled executor: processors and speeds disagree");
  if (plan.initial || plan.dynamic || !plan.later_phase_dynamic.empty())
    throw std::invalid_argument("self-scheduled executor: a schedule takes no balancer");
  remote_runs_ = 0;
  SelfScheduledRun run(schedule_, workload, store, plan, sink);
  ExecutionResult result = run.run();
  remote_runs_ = run.remote_runs();
  return result;
}

}  // namespace lbb
