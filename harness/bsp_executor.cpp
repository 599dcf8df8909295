#include <omp.h>

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "balancers/static/block_partition.h"
#include "core/assignment.h"
#include "harness/clock.h"
#include "harness/executor.h"
#include "harness/platform_emulation.h"
#include "kernels/blas_threads.h"

namespace lbb {

namespace {

// One processor's measurements of the current step, padded against false sharing.
struct alignas(64) ProcessorSlot {
  double start = 0, end = 0;  // wall clock around the module loop
  double busy_cpu = 0, busy_wall = 0;
  double external_load = 0;       // mean emulated load level over the step's module time
  std::vector<double> phase_cpu;  // busy CPU time per phase of the step
  double migration_cpu = 0;
  std::int64_t migrated = 0, bytes = 0;
};

void check_assignment(std::span<const int> owner, int modules, int processors) {
  if (auto err = assignment_error(owner, modules, processors))
    throw std::logic_error("balancer returned an invalid assignment: " + *err);
}

}  // namespace

LoadView initial_view(const Workload& workload, const std::vector<double>& weights,
                      const std::vector<std::uint64_t>& bytes, const std::vector<double>& coords,
                      const ExecutionPlan& plan) {
  LoadView v;
  v.cost = weights;
  v.bytes = bytes;
  v.speed = plan.speed;
  v.topology = plan.topology;
  v.structure = workload.structure();
  v.dimensions = workload.dimensions();
  v.coords = coords;
  v.step = -1;
  return v;
}

ExecutionResult BspExecutor::run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                                 StepSink& sink) {
  const int P = plan.processors;
  const int M = workload.module_count();
  const int total = plan.warmup + plan.steps;
  if (static_cast<int>(plan.speed.size()) != P) throw std::invalid_argument("speeds != P");
  kernels::use_one_blas_thread();
  ExecutionResult result;
  const double run_start = wall_now();

  // Initial partition from the workload's cost model.
  std::vector<std::uint64_t> bytes(M);
  for (int m = 0; m < M; ++m) bytes[m] = workload.state_bytes(m);
  const std::vector<double> coords = workload.module_coords();
  const std::vector<double> weights = workload.predicted_weights();
  std::vector<int> owner;
  {
    const double t0 = thread_cpu_now();
    if (plan.initial) {
      Decision d = plan.initial->decide(initial_view(workload, weights, bytes, coords, plan));
      owner = d.act ? std::move(d.owner) : block_owners(M, P);
    } else {
      owner = block_owners(M, P);
    }
    result.initial_partition_seconds = thread_cpu_now() - t0;
    check_assignment(owner, M, P);
  }
  std::vector<std::vector<int>> lists = modules_by_processor(owner, P);

  std::vector<ProcessorSlot> slots(P);
  std::vector<double> cost(M, 0.0);
  // Emulated speeds and external load; balancers get costs at nominal speed (cost x speed).
  const PlatformEmulation emulation(plan.speed, plan.external_load, run_start);
  if (emulation.active()) busy_work_rate();  // calibrate before the first timed step
  const bool nominal_differs =
      std::any_of(plan.speed.begin(), plan.speed.end(), [](double v) { return v != 1.0; });
  std::vector<double> nominal_cost(nominal_differs ? M : 0, 0.0);
  std::vector<int> moved;
  std::vector<int> step_owner;  // owner during the step being recorded
  bool migrate_now = false, abort = false, have_pending = false;
  std::exception_ptr error;
  StepRecord rec;
  double migration_wall = 0, serial_wall = 0, balance_wall = 0;
  double balance_cpu = 0, serial_cpu = 0;
  const int phases = workload.phases();
  double phase_wait = 0;  // CPU s the busiest processor waits at the barriers between phases
  for (auto& slot : slots) slot.phase_cpu.assign(phases, 0.0);

  auto fail = [&](std::exception_ptr e) {
#pragma omp critical(lbb_executor_error)
    if (!error) error = e;
  };

  // Completes the record of the previous step once its migrations are known, and hands it on.
  auto finish_record = [&]() {
    double max_load = 0;
    for (int p = 0; p < P; ++p) {
      const ProcessorSlot& s = slots[p];
      rec.proc_migration[p] = s.migration_cpu;
      rec.migrations += s.migrated;
      rec.bytes_moved += s.bytes;
      max_load = std::max(max_load, rec.busy[p] + rec.proc_balance[p] + s.migration_cpu);
    }
    rec.makespan = max_load + phase_wait + rec.serial;
    for (int p = 0; p < P; ++p)
      rec.idle[p] =
          rec.makespan - rec.serial - (rec.busy[p] + rec.proc_balance[p] + rec.proc_migration[p]);
    rec.wall = rec.compute_wall + serial_wall + balance_wall + migration_wall;
    if (!store.complete()) throw std::logic_error("a module lost its state");
    result.migrations += rec.migrations;
    result.bytes_moved += rec.bytes_moved;
    if (rec.step >= 0) {
      const double t0 = wall_now();
      sink.on_step(rec);
      result.record_seconds += wall_now() - t0;
    }
  };

  // Starts the record of step s from the processors' slots.
  auto start_record = [&](int s) {
    rec.step = s - plan.warmup;  // negative during warm-up: not handed to the sink
    rec.busy.assign(P, 0);
    rec.busy_wall.assign(P, 0);
    rec.external_load.assign(P, 0);
    rec.idle.assign(P, 0);
    rec.proc_balance.assign(P, 0);
    rec.proc_migration.assign(P, 0);
    rec.migrations = 0;
    rec.bytes_moved = 0;
    double first = slots[0].start, last = slots[0].end, busy_sum = 0, speed_sum = 0;
    for (int p = 0; p < P; ++p) {
      const ProcessorSlot& s = slots[p];
      first = std::min(first, s.start);
      last = std::max(last, s.end);
      rec.busy[p] = s.busy_cpu;
      rec.busy_wall[p] = s.busy_wall;
      rec.external_load[p] = s.external_load;
      busy_sum += s.busy_cpu * plan.speed[p];  // nominal work: busy time at speed 1
      speed_sum += plan.speed[p];
    }
    rec.compute_wall = last - first;
    // A barrier ends every phase: the step's compute time is the sum over phases of the
    // slowest processor's, which exceeds the slowest processor's total by phase_wait.
    double phase_sum = 0, busiest = 0;
    for (int ph = 0; ph < phases; ++ph) {
      double slowest = 0;
      for (int q = 0; q < P; ++q) slowest = std::max(slowest, slots[q].phase_cpu[ph]);
      phase_sum += slowest;
    }
    for (int q = 0; q < P; ++q) busiest = std::max(busiest, slots[q].busy_cpu);
    phase_wait = phases > 1 ? std::max(0.0, phase_sum - busiest) : 0.0;
    rec.ideal = busy_sum / speed_sum;
    rec.serial = serial_cpu;
    rec.metrics = workload.step_metric_values(s);
    if (plan.record_modules) {
      rec.module_cost = cost;
      rec.module_owner = owner;
    }
  };

#pragma omp parallel num_threads(P)
  {
    const int p = omp_get_thread_num();
    try {
      for (int m : lists[p]) store.place(m);
    } catch (...) {
      fail(std::current_exception());
    }
#pragma omp barrier
#pragma omp single
    {
      if (error || !store.complete()) abort = true;
      if (omp_get_num_threads() != P) {
        abort = true;
        if (!error)
          error = std::make_exception_ptr(std::runtime_error(
              "OpenMP gave " + std::to_string(omp_get_num_threads()) + " threads, not " +
              std::to_string(P) + " (check OMP_THREAD_LIMIT / OMP_DYNAMIC)"));
      }
    }
    for (int s = 0; s < total && !abort; ++s) {
      ProcessorSlot& slot = slots[p];
      slot.start = wall_now();
      double busy_wall = 0, loaded = 0, unloaded = 0;  // level x time, time before emulation
      // Every phase of the step under the same assignment, a barrier after each but the last.
      for (int ph = 0; ph < phases; ++ph) {
        const double pc = thread_cpu_now();
        try {
          for (int m : lists[p]) {
            // Emulation stretches a module by its CPU time (a wall-clock base would also
            // stretch preemption); the two extra CPU clock reads are paid only when emulating.
            const double ca = emulation.active() ? thread_cpu_now() : 0.0;
            const double a = wall_now();
            workload.run_module(m, s, ph, store.state(m));
            double b = wall_now();
            if (emulation.active()) {
              const double x = thread_cpu_now() - ca;
              const double level = emulation.load_at(p, b);
              busy_work(emulation.extra_seconds(p, x, level));
              loaded += level * x;
              unloaded += x;
              b = wall_now();
            }
            cost[m] = (ph == 0 ? 0.0 : cost[m]) + (b - a);
            busy_wall += b - a;
          }
        } catch (...) {
          fail(std::current_exception());
        }
        slot.phase_cpu[ph] = thread_cpu_now() - pc;
        if (ph + 1 < phases) {
#pragma omp barrier
        }
      }
      slot.end = wall_now();
      // The phases' CPU times only: spinning at a barrier between phases is not work.
      slot.busy_cpu = 0;
      for (double c : slot.phase_cpu) slot.busy_cpu += c;
      slot.busy_wall = busy_wall;
      slot.external_load = unloaded > 0 ? loaded / unloaded : 0;
      // Two clocks: a module's wall time shrinks by its processor's CPU/wall ratio, so module
      // costs add up to CPU busy time when preemption inflated the wall clock.
      if (busy_wall > slot.busy_cpu && busy_wall > 0) {
        const double scale = slot.busy_cpu / busy_wall;
        for (int m : lists[p]) cost[m] *= scale;
      }
      if (nominal_differs)
        for (int m : lists[p]) nominal_cost[m] = cost[m] * plan.speed[p];
#pragma omp barrier
#pragma omp single
      {
        try {
          if (error) throw std::runtime_error("module failed");
          if (have_pending) finish_record();
          const double sw = wall_now(), sc = thread_cpu_now();
          workload.finish_step(s, store);
          serial_cpu = thread_cpu_now() - sc;
          serial_wall = wall_now() - sw;
          start_record(s);
          moved.clear();
          balance_cpu = 0;
          balance_wall = 0;
          if (plan.dynamic) {
            const std::vector<std::uint64_t> now_bytes = store.all_bytes();
            LoadView view = initial_view(workload, nominal_differs ? nominal_cost : cost, now_bytes,
                                         coords, plan);
            view.busy = rec.busy;
            view.owner = owner;
            view.step = s;
            const double bw = wall_now(), bc = thread_cpu_now();
            Decision d = plan.dynamic->decide(view);
            balance_cpu = thread_cpu_now() - bc;
            balance_wall = wall_now() - bw;
            if (d.act) {
              check_assignment(d.owner, M, P);
              for (int m = 0; m < M; ++m)
                if (d.owner[m] != owner[m]) moved.push_back(m);
              owner = std::move(d.owner);
              lists = modules_by_processor(owner, P);
            }
          }
          // Centralised decision: every processor waits for it.
          std::fill(rec.proc_balance.begin(), rec.proc_balance.end(), balance_cpu);
          rec.balance = balance_cpu;
          migrate_now = !moved.empty();
          have_pending = true;
        } catch (...) {
          if (!error) error = std::current_exception();
          abort = true;
        }
      }
      if (abort) break;
      const double mw = wall_now();
      slot.migration_cpu = 0;
      slot.migrated = 0;
      slot.bytes = 0;
      if (migrate_now) {
        const double mc = thread_cpu_now();
        for (int m : moved)
          if (owner[m] == p) {
            slot.bytes += static_cast<std::int64_t>(store.migrate(m));
            ++slot.migrated;
          }
        slot.migration_cpu = thread_cpu_now() - mc;
#pragma omp barrier
      }
      if (p == 0) migration_wall = wall_now() - mw;
    }
  }
  if (error) std::rethrow_exception(error);
  if (have_pending) finish_record();
  if (!store.complete()) throw std::logic_error("a module lost its state");
  result.steps_run = total;
  result.final_owner = owner;
  result.run_wall = wall_now() - run_start;
  return result;
}

}  // namespace lbb
