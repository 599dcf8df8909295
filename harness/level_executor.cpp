#include "harness/level_executor.h"

#include <omp.h>

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "core/assignment.h"
#include "core/level_cost.h"
#include "harness/clock.h"
#include "harness/emulated_run.h"
#include "harness/omp_team.h"

namespace lbb {

namespace {

struct Task {
  TaskState state;
  int creator = 0;
  double cost = 0;  // E_a, predicted by the workload
  double hop = 0;   // B_a + M_a
};

// One processor's buffers and measurements of the current level, padded against false sharing.
struct alignas(64) ProcessorSlot {
  std::vector<std::byte> children;  // what the tasks run here created this level
  std::vector<Task> born;           // the next level's tasks created here
  double start = 0, end = 0;        // wall clock: execution phase start, last task end
  double busy_cpu = 0, busy_wall = 0;
  double cut_cpu = 0, cut_wall = 0;
  double migration_cpu = 0;
  LoadTally load;  // emulated external load over the tasks run here
  void clear_measurements() {
    start = end = busy_cpu = busy_wall = cut_cpu = cut_wall = migration_cpu = 0;
    load = {};
  }
};

Task describe(TaskState state, int creator, const LevelWorkload& workload) {
  Task t{std::move(state), creator, 0, 0};
  t.cost = workload.predicted_cost(t.state);
  t.hop = workload.hop_cost(t.state, t.cost);
  return t;
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
  const int P = plan.processors;
  if (P < 1 || static_cast<int>(plan.speed.size()) != P || !plan.topology ||
      plan.topology->size() != P)
    throw std::invalid_argument("level executor: processors, speeds and topology disagree");
  if (plan.chunk < 1) throw std::invalid_argument("level executor: chunk must be >= 1");
  LevelResult result;
  const double run_start = wall_now();
  const PlatformEmulation emulation(plan.speed, plan.external_load, run_start);
  if (emulation.active()) busy_work_rate();  // calibrate before the first timed level
  std::vector<ProcessorSlot> slots(P);
  // The root level, created on processor 0 (this thread becomes thread 0 of the team).
  for (TaskState& s : workload.start(P))
    slots[0].born.push_back(describe(std::move(s), 0, workload));

  // The current level, written only inside `single` sections.
  int level = -1;
  std::vector<Task> tasks;
  std::vector<int> creator, owner, runner;
  std::vector<double> cost, hop;
  std::vector<std::uint64_t> bytes;
  std::vector<std::vector<int>> lists(P), arrivals(P);
  bool done = false, any_arrivals = false;
  double level_start = 0, gather_cpu = 0, balance_cpu = 0;
  std::exception_ptr error;

  auto fail = [&](std::exception_ptr e) {
#pragma omp critical(lbb_level_executor_error)
    if (!error) error = e;
  };

  // Completes the record of the level just run and hands it on.
  auto finish_record = [&]() {
    const double sc = thread_cpu_now();
    workload.finish_level(level);
    const double serial = gather_cpu + (thread_cpu_now() - sc);
    const int M = static_cast<int>(tasks.size());
    StepRecord rec;
    rec.step = level;
    rec.busy.assign(P, 0);
    rec.busy_wall.assign(P, 0);
    rec.idle.assign(P, 0);
    rec.proc_balance.assign(P, balance_cpu);  // a central decision: every processor waits
    rec.proc_migration.assign(P, 0);
    rec.external_load.assign(P, 0);
    double first = slots[0].start, last = slots[0].end, busy_sum = 0, speed_sum = 0, max_load = 0;
    for (int p = 0; p < P; ++p) {
      const ProcessorSlot& s = slots[p];
      rec.busy[p] = s.busy_cpu + s.cut_cpu;
      rec.busy_wall[p] = s.busy_wall + s.cut_wall;
      rec.proc_migration[p] = s.migration_cpu;
      rec.external_load[p] = s.load.mean();
      first = std::min(first, s.start);
      last = std::max(last, s.end);
      busy_sum += rec.busy[p];
      speed_sum += plan.speed[p];
      max_load = std::max(max_load, rec.busy[p] + balance_cpu + s.migration_cpu);
    }
    rec.serial = serial;
    rec.balance = balance_cpu;
    rec.makespan = max_load + serial;
    rec.ideal = busy_sum / speed_sum;
    for (int p = 0; p < P; ++p)
      rec.idle[p] = max_load - (rec.busy[p] + balance_cpu + rec.proc_migration[p]);
    rec.compute_wall = last - first;
    int max_distance = 0;
    for (int a = 0; a < M; ++a) {
      if (runner[a] == creator[a]) continue;
      ++rec.migrations;  // copied in by its new owner, or read remotely by a scheduler's thread
      rec.bytes_moved += static_cast<std::int64_t>(bytes[a]);
      max_distance = std::max(max_distance, plan.topology->distance(creator[a], runner[a]));
    }
    const double lb = level_lower_bound(cost, plan.speed);
    const LevelCost t = level_cost(creator, runner, cost, hop, plan.speed, *plan.topology);
    rec.metrics = workload.level_metric_values(level);
    for (double v : {static_cast<double>(M), lb, t.total(), t.communication,
                     static_cast<double>(max_distance)})
      rec.metrics.push_back(v);
    rec.wall = wall_now() - level_start;
    result.levels = level + 1;
    result.tasks += M;
    result.migrations += rec.migrations;
    result.bytes_moved += rec.bytes_moved;
    result.lb_model += lb;
    result.t_model += t.total();
    result.comm_model += t.communication;
    result.max_distance = std::max(result.max_distance, max_distance);
    const double r0 = wall_now();
    sink.on_step(rec);
    result.record_seconds += wall_now() - r0;
  };

  // Collects the tasks born during the last level and decides where the next one runs.
  auto next_level = [&]() {
    if (level >= 0) finish_record();
    level_start = wall_now();
    const double gc = thread_cpu_now();
    tasks.clear();
    for (int p = 0; p < P; ++p) {
      for (Task& t : slots[p].born) tasks.push_back(std::move(t));
      slots[p].born.clear();
      slots[p].clear_measurements();
    }
    if (tasks.empty()) {
      done = true;
      return;
    }
    ++level;
    const int M = static_cast<int>(tasks.size());
    creator.resize(M);
    cost.resize(M);
    hop.resize(M);
    bytes.resize(M);
    for (int a = 0; a < M; ++a) {
      creator[a] = tasks[a].creator;
      cost[a] = tasks[a].cost;
      hop[a] = tasks[a].hop;
      bytes[a] = tasks[a].state.size();
    }
    owner = creator;
    gather_cpu = thread_cpu_now() - gc;
    balance_cpu = 0;
    if (plan.schedule == InStepSchedule::kAssigned && plan.balancer) {
      LoadView view;
      view.cost = cost;
      view.bytes = bytes;
      view.speed = plan.speed;
      view.owner = creator;
      view.topology = plan.topology;
      view.step = level - 1;
      view.hop_cost = hop;
      const double bc = thread_cpu_now();
      Decision d = plan.balancer->decide(view);
      balance_cpu = thread_cpu_now() - bc;
      if (d.act) {
        if (auto err = assignment_error(d.owner, M, P))
          throw std::logic_error("balancer returned an invalid assignment: " + *err);
        owner = std::move(d.owner);
      }
    }
    runner.assign(M, -1);
    any_arrivals = false;
    for (int p = 0; p < P; ++p) {
      lists[p].clear();
      arrivals[p].clear();
    }
    for (int a = 0; a < M; ++a) {
      // Assigned: what each processor runs. OpenMP tasks: what each processor spawns.
      lists[plan.schedule == InStepSchedule::kOmpTasks ? creator[a] : owner[a]].push_back(a);
      if (plan.schedule == InStepSchedule::kAssigned && owner[a] != creator[a]) {
        arrivals[owner[a]].push_back(a);
        any_arrivals = true;
      }
    }
  };

  // Runs task a on processor q; never throws (OpenMP constructs must not be left by one).
  // With `cpu`, also adds the task's thread CPU time to q's busy time (two system calls).
  // Emulated speed and load stretch the task by real busy work, in proportion to its CPU time.
  auto run_task = [&](int a, int q, bool cpu) {
    try {
      ProcessorSlot& s = slots[q];
      const double c0 = cpu ? thread_cpu_now() : 0.0;
      s.busy_wall += run_emulated(emulation, q, s.load,
                                  [&] { workload.run_task(level, q, tasks[a].state, s.children); });
      if (cpu) s.busy_cpu += thread_cpu_now() - c0;
      runner[a] = q;
      s.end = std::max(s.end, wall_now());
    } catch (...) {
      fail(std::current_exception());
    }
  };

#pragma omp parallel num_threads(P)
  {
    const int p = omp_get_thread_num();
#pragma omp single
    if (auto team = team_size_error(P)) {
      done = true;
      error = std::make_exception_ptr(std::runtime_error(*team));
    }
    // Every thread leaves only after the same single section saw the end (never on a stale
    // flag at the loop head, which would leave the others waiting in that section's barrier).
    while (true) {
#pragma omp single
      {
        try {
          if (error) throw std::runtime_error("a task failed");
          next_level();
        } catch (...) {
          if (!error) error = std::current_exception();
          done = true;
        }
      }
      if (done) break;
      ProcessorSlot& slot = slots[p];
      // Migration: the new owner copies the task state into memory it touches first.
      if (any_arrivals) {
        const double mc = thread_cpu_now();
        for (int a : arrivals[p]) {
          TaskState copy(tasks[a].state.begin(), tasks[a].state.end());
          tasks[a].state.swap(copy);
        }
        slot.migration_cpu = thread_cpu_now() - mc;
#pragma omp barrier
      }
      // Execution.
      const double c0 = thread_cpu_now(), w0 = wall_now();
      slot.start = w0;
      slot.end = w0;
      const int M = static_cast<int>(tasks.size());
      switch (plan.schedule) {
        case InStepSchedule::kAssigned:
          for (int a : lists[p]) run_task(a, p, false);
          break;
        case InStepSchedule::kOmpStatic:
#pragma omp for schedule(static) nowait
          for (int a = 0; a < M; ++a) run_task(a, p, false);
          break;
        case InStepSchedule::kOmpDynamic:
#pragma omp for schedule(dynamic, plan.chunk) nowait
          for (int a = 0; a < M; ++a) run_task(a, p, false);
          break;
        case InStepSchedule::kOmpGuided:
#pragma omp for schedule(guided, plan.chunk) nowait
          for (int a = 0; a < M; ++a) run_task(a, p, false);
          break;
        case InStepSchedule::kOmpTasks:
          // Tasks also run inside the barrier below, where a thread's CPU time cannot tell
          // work from waiting: each task takes its own thread CPU time instead.
          for (int a : lists[p]) {
#pragma omp task firstprivate(a)
            run_task(a, omp_get_thread_num(), true);
          }
          break;
      }
      const double c1 = thread_cpu_now();
#pragma omp barrier
      if (plan.schedule != InStepSchedule::kOmpTasks) slot.busy_cpu = c1 - c0;
      // The children this processor created become its tasks of the next level.
      const double cc = thread_cpu_now(), cw = wall_now();
      try {
        std::vector<TaskState> states;
        workload.cut_tasks(level, slot.children, states);
        for (TaskState& s : states) slot.born.push_back(describe(std::move(s), p, workload));
      } catch (...) {
        fail(std::current_exception());
      }
      slot.children.clear();
      slot.cut_cpu = thread_cpu_now() - cc;
      slot.cut_wall = wall_now() - cw;
#pragma omp barrier
    }
  }
  if (error) std::rethrow_exception(error);
  result.run_wall = wall_now() - run_start;
  return result;
}

}  // namespace lbb
