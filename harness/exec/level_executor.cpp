#include "harness/exec/level_executor.h"

#include <omp.h>

#include <algorithm>
#include <stdexcept>

#include "core/level_cost.h"
#include "harness/base/clock.h"
#include "harness/exec/conservation.h"
#include "harness/exec/emulated_run.h"
#include "harness/exec/load_view_builder.h"
#include "harness/exec/run_context.h"
#include "harness/exec/schedule_loop.h"

namespace lbb {

namespace {

struct Task {
  TaskState state;
  int creator = 0;
  double cost = 0;  // E_a, predicted by the workload
  double hop = 0;   // B_a + M_a
};

// One processor's buffers and CPU times of the current level, padded against false sharing
// (its wall times and load are in the StepRecorder's ProcessorTimes).
struct alignas(64) LevelSlot {
  std::vector<std::byte> children;  // what the tasks run here created this level
  std::vector<Task> born;           // the next level's tasks created here
  double busy_cpu = 0, cut_cpu = 0, cut_wall = 0, migration_cpu = 0;
  StretchClock task_clock;  // one OpenMP task's CPU time (clock.h)
};

// The slots of P processors: a task's clock is exact where threads outnumber cores.
std::vector<LevelSlot> level_slots(const Team& team) {
  std::vector<LevelSlot> slots(team.size());
  if (team.outnumbers_cores())
    for (LevelSlot& slot : slots) slot.task_clock = StretchClock(true);
  return slots;
}

Task describe(TaskState state, int creator, const LevelWorkload& workload) {
  Task t{std::move(state), creator, 0, 0};
  t.cost = workload.predicted_cost(t.state);
  t.hop = workload.hop_cost(t.state, t.cost);
  return t;
}

// One run of the level executor: the state its levels share, and the steps of a level by name.
class LevelRun : RunContext {
 public:
  LevelRun(LevelWorkload& workload, const LevelPlan& plan, StepSink& sink);
  LevelResult run();

 private:
  bool next_level();  // one thread: closes the level just run, opens the next; false: none
  void gather();
  void decide();
  void distribute();
  void migrate(int p);
  void run_level(int p);
  void run_task(int a, int q, bool cpu);
  void cut(int p);
  void close_level();
  int count_migrations();

  LevelWorkload& workload_;
  const LevelPlan& plan_;
  const LoadViewBuilder views_;
  LevelResult result_;
  std::vector<LevelSlot> slots_;
  // The current level, written only inside single sections.
  int level_ = -1;
  std::vector<Task> tasks_;
  std::vector<int> creator_, owner_, runner_;
  std::vector<double> cost_, hop_;
  std::vector<std::uint64_t> bytes_;
  std::vector<std::vector<int>> lists_, arrivals_;
  bool any_arrivals_ = false;
  double level_start_ = 0, gather_cpu_ = 0, balance_cpu_ = 0;
};

LevelRun::LevelRun(LevelWorkload& workload, const LevelPlan& plan, StepSink& sink)
    : RunContext(plan.processors, plan.speed, plan.external_load, 1, sink),
      workload_(workload),
      plan_(plan),
      views_(plan.speed, plan.topology),
      slots_(level_slots(team_)),
      lists_(P_),
      arrivals_(P_) {
  // The root level, created on processor 0 (this thread becomes thread 0 of the team).
  for (TaskState& s : workload.start(P_))
    slots_[0].born.push_back(describe(std::move(s), 0, workload));
}

// One barrier a level: its last thread to arrive closes the level and opens the next (every
// thread leaves only after the same serial block saw the end, never on a stale flag). Within a
// level no thread reads what another writes: a task's new owner copies it in and runs it, and a
// processor cuts only the children its own runs made (OpenMP tasks, which any thread may run,
// end at their own barrier first).
LevelResult LevelRun::run() {
  team_.run([&](int p) {
    while (team_.serial_barrier([&] {
      if (!next_level()) team_.stop();
    })) {
      migrate(p);
      run_level(p);
      cut(p);
    }
  });
  result_.run_wall = wall_now() - run_start_;
  result_.work = recorder_.work();
  return result_;
}

// Closes the level just run (its record is complete once its children are cut), then collects
// the tasks born during it and decides where the next level runs.
bool LevelRun::next_level() {
  if (level_ >= 0) close_level();
  level_start_ = wall_now();
  gather();
  if (tasks_.empty()) return false;
  decide();
  distribute();
  return true;
}

void LevelRun::gather() {
  const double gc = thread_cpu_now();
  tasks_.clear();
  for (LevelSlot& slot : slots_) {
    for (Task& t : slot.born) tasks_.push_back(std::move(t));
    slot.born.clear();
    slot.busy_cpu = slot.cut_cpu = slot.cut_wall = slot.migration_cpu = 0;
  }
  recorder_.clear();
  if (tasks_.empty()) return;
  ++level_;
  const int M = static_cast<int>(tasks_.size());
  creator_.resize(M);
  cost_.resize(M);
  hop_.resize(M);
  bytes_.resize(M);
  for (int a = 0; a < M; ++a) {
    creator_[a] = tasks_[a].creator;
    cost_[a] = tasks_[a].cost;
    hop_[a] = tasks_[a].hop;
    bytes_[a] = tasks_[a].state.size();
  }
  owner_ = creator_;
  gather_cpu_ = thread_cpu_now() - gc;
}

// Hwang & Hong 2001: the balancer assigns the level's tasks from their predicted costs E_a, hop
// costs B_a + M_a and creators, before any runs. A central decision: every processor waits.
void LevelRun::decide() {
  balance_cpu_ = 0;
  if (plan_.schedule != InStepSchedule::kAssigned || !plan_.balancer) return;
  const LoadView view =
      views_.view(level_ - 1, ViewLoads(cost_, bytes_).owners(creator_).hop_costs(hop_));
  const double bc = thread_cpu_now();
  Decision d = plan_.balancer->decide(view);
  balance_cpu_ = thread_cpu_now() - bc;
  if (!d.act) return;
  check_assignment(d.owner, static_cast<int>(tasks_.size()), P_);
  owner_ = std::move(d.owner);
}

// Assigned: what each processor runs, and what it copies in. OpenMP tasks: what each spawns.
void LevelRun::distribute() {
  const int M = static_cast<int>(tasks_.size());
  runner_.assign(M, -1);
  any_arrivals_ = false;
  for (int p = 0; p < P_; ++p) {
    lists_[p].clear();
    arrivals_[p].clear();
  }
  for (int a = 0; a < M; ++a) {
    lists_[plan_.schedule == InStepSchedule::kOmpTasks ? creator_[a] : owner_[a]].push_back(a);
    if (plan_.schedule == InStepSchedule::kAssigned && owner_[a] != creator_[a]) {
      arrivals_[owner_[a]].push_back(a);
      any_arrivals_ = true;
    }
  }
}

// The new owner copies the task state into memory it touches first.
void LevelRun::migrate(int p) {
  if (!any_arrivals_) return;
  const double mc = thread_cpu_now();
  team_.guard([&] {
    for (int a : arrivals_[p]) {
      TaskState copy(tasks_[a].state.begin(), tasks_[a].state.end());
      tasks_[a].state.swap(copy);
    }
  });
  slots_[p].migration_cpu = thread_cpu_now() - mc;
}

void LevelRun::run_level(int p) {
  ProcessorTimes& me = recorder_.processor(p);
  me.start = me.end = wall_now();
  if (plan_.schedule == InStepSchedule::kOmpTasks) {
    // Tasks also run inside the barrier below, where a thread's CPU time cannot tell work from
    // waiting: each task takes its own CPU time instead.
    for (int a : lists_[p]) {
#pragma omp task firstprivate(a)
      run_task(a, omp_get_thread_num(), true);
    }
#pragma omp barrier
    return;
  }
  const double c0 = thread_cpu_now();
  if (plan_.schedule == InStepSchedule::kAssigned) {
    for (int a : lists_[p]) run_task(a, p, false);
  } else {
    const int M = static_cast<int>(tasks_.size());
    scheduled_loop(plan_.schedule, plan_.chunk, M, [&](int a) { run_task(a, p, false); });
  }
  slots_[p].busy_cpu = thread_cpu_now() - c0;
}

// Runs task a on processor q; never throws (OpenMP constructs must not be left by one). With
// `cpu`, also adds the task's CPU time to q's busy time: its wall time when short, as StretchClock
// reads it (two system calls a task cost more than a small task's work). Emulated speed and load
// stretch the task by real busy work, in proportion to its CPU time.
void LevelRun::run_task(int a, int q, bool cpu) {
  team_.guard([&] {
    ProcessorTimes& t = recorder_.processor(q);
    LevelSlot& slot = slots_[q];
    if (cpu) slot.task_clock.start();
    const double start = wall_now();
    const double end = run_emulated_until_end(emulation_, q, t.load, [&] {
      workload_.run_task(level_, q, tasks_[a].state, slot.children);
    });
    if (cpu) slot.busy_cpu += slot.task_clock.stop();
    t.busy_wall += end - start;
    runner_[a] = q;
    t.end = std::max(t.end, end);
  });
}

// The children processor p created become its tasks of the next level.
void LevelRun::cut(int p) {
  LevelSlot& slot = slots_[p];
  const double cc = thread_cpu_now(), cw = wall_now();
  team_.guard([&] {
    std::vector<TaskState> states;
    workload_.cut_tasks(level_, slot.children, states);
    for (TaskState& s : states) slot.born.push_back(describe(std::move(s), p, workload_));
  });
  slot.children.clear();
  slot.cut_cpu = thread_cpu_now() - cc;
  slot.cut_wall = wall_now() - cw;
}

// The level's record: its tasks' run and cut times, the central decision and the copies, with
// the workload's serial end of level; then Hwang & Hong's model figures for it.
void LevelRun::close_level() {
  const double sc = thread_cpu_now();
  workload_.finish_level(level_);
  const double serial = gather_cpu_ + (thread_cpu_now() - sc);
  for (int p = 0; p < P_; ++p) {
    const LevelSlot& slot = slots_[p];
    ProcessorTimes& t = recorder_.processor(p);
    PhaseTimes& x = t.phase[0];
    x.busy = x.finish = slot.busy_cpu + slot.cut_cpu;
    x.end_balance = balance_cpu_;  // decided before the level ran: everyone waited for it
    x.end_migration = slot.migration_cpu;
    t.busy_wall += slot.cut_wall;
  }
  StepRecord rec;
  rec.step = level_;
  const int max_distance = count_migrations();
  recorder_.close(rec, serial, wall_now() - level_start_);
  const int M = static_cast<int>(tasks_.size());
  const double lb = level_lower_bound(cost_, plan_.speed);
  const LevelCost t = level_cost(creator_, runner_, cost_, hop_, plan_.speed, *plan_.topology);
  rec.metrics = workload_.level_metric_values(level_);
  for (double v :
       {static_cast<double>(M), lb, t.total(), t.communication, static_cast<double>(max_distance)})
    rec.metrics.push_back(v);
  result_.levels = level_ + 1;
  result_.tasks += M;
  result_.migrations += rec.migrations;
  result_.bytes_moved += rec.bytes_moved;
  result_.lb_model += lb;
  result_.t_model += t.total();
  result_.comm_model += t.communication;
  result_.max_distance = std::max(result_.max_distance, max_distance);
  record_step(sink_, rec, result_.record_seconds);
}

// Tasks run away from their creator (copied in by their new owner, or read remotely by a
// scheduler's thread), counted on the processor that ran them; returns the farthest distance.
int LevelRun::count_migrations() {
  int max_distance = 0;
  for (std::size_t a = 0; a < tasks_.size(); ++a) {
    if (runner_[a] == creator_[a]) continue;
    ProcessorTimes& t = recorder_.processor(runner_[a]);
    ++t.migrated;
    t.bytes += static_cast<std::int64_t>(bytes_[a]);
    max_distance = std::max(max_distance, plan_.topology->distance(creator_[a], runner_[a]));
  }
  return max_distance;
}

}  // namespace

std::vector<StepMetric> level_executor_metrics() {
  return {{"tasks", "tasks (modules) of the level"},
          {"lb_model", "LB = sum of predicted task costs E_a / sum of speeds (workload units)"},
          {"t_model", "T_i = max processor load + max_a d(f(a), g(a)) (B_a + M_a) (units of E_a)"},
          {"comm_model", "communication term of T_i: max_a d(f(a), g(a)) (B_a + M_a)"},
          {"max_distance", "farthest a task ran from its creator, in hops"}};
}

LevelResult LevelExecutor::run(LevelWorkload& workload, const LevelPlan& plan, StepSink& sink) {
  if (plan.processors < 1 || static_cast<int>(plan.speed.size()) != plan.processors ||
      !plan.topology || plan.topology->size() != plan.processors)
    throw std::invalid_argument("level executor: processors, speeds and topology disagree");
  if (plan.chunk < 1) throw std::invalid_argument("level executor: chunk must be >= 1");
  return LevelRun(workload, plan, sink).run();
}

}  // namespace lbb
