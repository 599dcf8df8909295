#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <stdexcept>
#include <string>

#include "balancers/partition/block.h"
#include "core/assignment.h"
#include "harness/clock.h"
#include "harness/emulated_run.h"
#include "harness/executor.h"
#include "harness/group_sync.h"
#include "harness/omp_team.h"
#include "harness/platform_emulation.h"
#include "kernels/blas_threads.h"

namespace lbb {

namespace {

// One processor's times in one phase of the current step, CPU seconds unless named wall.
struct PhaseTimes {
  double busy = 0;     // running modules
  double finish = 0;   // modelled, from the phase's start to its last module: busy, or after a
                       // group synchronisation: the group's last arrival + decision + copies + rest
  double balance = 0;  // deciding at the synchronisation: its own time, or the decider's
  double migration = 0;      // copying in the modules it gained at the synchronisation
  double end_balance = 0;    // deciding at the phase's end: its own time, or the decider's
  double end_migration = 0;  // copying in its modules of the next phase (not the last phase)
  double balance_wall = 0, end_balance_wall = 0;
};

// One processor's measurements of the current step, padded against false sharing.
struct alignas(64) ProcessorSlot {
  double start = 0, end = 0;  // wall clock around the step's phases
  double busy_wall = 0;
  double loaded = 0, unloaded = 0;  // emulated load level x CPU time; CPU time before emulation
  std::vector<PhaseTimes> phase;
  std::int64_t migrated = 0, bytes = 0;  // copies during the step
  // Copies after the last phase, toward the next step: charged to this step.
  double tail_migration = 0;
  std::int64_t tail_migrated = 0, tail_bytes = 0;
  int triggered = 0;   // group synchronisations it triggered in this step
  GroupDecision mine;  // its own decision in the current phase (published to its group)
};

void check_assignment(std::span<const int> owner, int modules, int processors) {
  if (auto err = assignment_error(owner, modules, processors))
    throw std::logic_error("balancer returned an invalid assignment: " + *err);
}

// Every module on exactly one processor's list, and that processor its owner.
void check_lists(const std::vector<std::vector<int>>& lists, std::span<const int> owner) {
  std::vector<char> seen(owner.size(), 0);
  for (std::size_t q = 0; q < lists.size(); ++q)
    for (int m : lists[q])
      if (seen[m]++ || owner[m] != static_cast<int>(q))
        throw std::logic_error("module " + std::to_string(m) + " is run twice or by a non-owner");
  if (std::find(seen.begin(), seen.end(), 0) != seen.end())
    throw std::logic_error("a module is on no processor's list");
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
  const int phases = workload.phases();
  if (static_cast<int>(plan.speed.size()) != P) throw std::invalid_argument("speeds != P");
  if (!plan.later_phase_dynamic.empty() &&
      (!plan.dynamic || static_cast<int>(plan.later_phase_dynamic.size()) != phases - 1))
    throw std::invalid_argument("a workload of " + std::to_string(phases) + " phases needs 1 + " +
                                std::to_string(phases - 1) +
                                " dynamic balancers, or one for all phases");
  kernels::use_one_blas_thread();
  ExecutionResult result;
  const double run_start = wall_now();

  // Every phase is a balancing point with its own assignment (Zaki, Li & Parthasarathy 1997 balance
  // TRFD's two loops separately), each started from the static partition of the phase's weights.
  std::vector<std::uint64_t> bytes(M);
  for (int m = 0; m < M; ++m) bytes[m] = workload.state_bytes(m);
  const std::vector<double> coords = workload.module_coords();
  std::vector<std::vector<double>> weights(phases);
  std::vector<std::vector<int>> owner(phases);
  {
    const double t0 = thread_cpu_now();
    for (int ph = 0; ph < phases; ++ph) {
      weights[ph] =
          phases == 1 ? workload.predicted_weights() : workload.predicted_phase_weights(ph);
      if (plan.initial) {
        Decision d = plan.initial->decide(initial_view(workload, weights[ph], bytes, coords, plan));
        owner[ph] = d.act ? std::move(d.owner) : block_owners(M, P);
      } else {
        owner[ph] = block_owners(M, P);
      }
    }
    result.initial_partition_seconds = thread_cpu_now() - t0;
    for (const auto& o : owner) check_assignment(o, M, P);
  }
  std::vector<std::vector<std::vector<int>>> lists(phases);
  for (int ph = 0; ph < phases; ++ph) lists[ph] = modules_by_processor(owner[ph], P);
  std::vector<int> where = owner[0];  // the processor holding each module's state

  // Per phase: its balancer, whether every thread decides, and the in-step synchronisation.
  std::vector<Balancer*> dynamic(phases, plan.dynamic);
  for (int ph = 1; ph < phases && !plan.later_phase_dynamic.empty(); ++ph)
    dynamic[ph] = plan.later_phase_dynamic[ph - 1];
  std::vector<char> redundant(phases, 0), in_step(phases, 0);
  std::vector<int> group_of_size(phases, P);
  std::vector<std::vector<std::unique_ptr<SyncGroup>>> groups(phases);
  bool any_in_step = false;
  for (int ph = 0; ph < phases; ++ph) {
    if (!dynamic[ph]) continue;
    redundant[ph] = dynamic[ph]->redundant();
    const SyncTrigger trigger = dynamic[ph]->sync_trigger();
    if (!trigger.on_fastest_finish) continue;
    in_step[ph] = 1;
    any_in_step = true;
    groups[ph] = make_sync_groups(P, trigger.group_size);
    group_of_size[ph] = groups[ph].front()->size;
  }
  std::vector<StopReport> reports(any_in_step ? P : 0);
  std::vector<double> unrun_cost(any_in_step ? M : 0, 0.0);
  std::vector<char> measured(phases, 0);  // every module's cost of the phase measured once

  std::vector<ProcessorSlot> slots(P);
  for (auto& slot : slots) slot.phase.assign(phases, PhaseTimes{});
  std::vector<std::vector<double>> cost(phases, std::vector<double>(M, 0.0));
  // Emulated speeds and external load; balancers get costs at nominal speed (cost x speed).
  const PlatformEmulation emulation(plan.speed, plan.external_load, run_start);
  if (emulation.active()) busy_work_rate();  // calibrate before the first timed step
  const bool nominal_differs =
      std::any_of(plan.speed.begin(), plan.speed.end(), [](double v) { return v != 1.0; });
  std::vector<std::vector<double>> nominal(phases,
                                           std::vector<double>(nominal_differs ? M : 0, 0.0));
  std::vector<int> moved;  // modules to copy in before the next phase
  bool migrate_now = false, abort = false, have_pending = false, end_redundant = false;
  bool changed = false;  // an assignment changed since the last migration
  std::exception_ptr error;
  StepRecord rec;
  std::vector<double> phase_time;  // [phase][P] of the pending record, before the tail copies
  double serial_wall = 0, serial_cpu = 0, tail_wall = 0;
  // The view of a phase-end decision that every thread computes (redundant balancers).
  LoadView end_view;
  std::vector<std::uint64_t> end_bytes;
  std::vector<double> end_busy(P, 0.0);

  auto fail = [&](std::exception_ptr e) {
#pragma omp critical(lbb_executor_error)
    if (!error) error = e;
  };

  // Completes the record of the previous step once its last copies are known, and hands it on.
  auto finish_record = [&]() {
    double makespan = 0;
    for (int p = 0; p < P; ++p) {
      const ProcessorSlot& s = slots[p];
      rec.proc_migration[p] += s.tail_migration;
      rec.migrations += s.tail_migrated;
      rec.bytes_moved += s.tail_bytes;
    }
    // A barrier ends every phase: the step takes the sum over phases of the slowest processor.
    for (int ph = 0; ph < phases; ++ph) {
      double slowest = 0;
      for (int p = 0; p < P; ++p)
        slowest = std::max(slowest, phase_time[static_cast<std::size_t>(ph) * P + p] +
                                        (ph + 1 == phases ? slots[p].tail_migration : 0.0));
      makespan += slowest;
    }
    rec.makespan = makespan + rec.serial;
    for (int p = 0; p < P; ++p)
      rec.idle[p] =
          rec.makespan - rec.serial - (rec.busy[p] + rec.proc_balance[p] + rec.proc_migration[p]);
    rec.wall += tail_wall;
    if (!store.complete()) throw std::logic_error("a module lost its state");
    result.migrations += rec.migrations;
    result.bytes_moved += rec.bytes_moved;
    if (rec.step >= 0) {
      const double t0 = wall_now();
      sink.on_step(rec);
      result.record_seconds += wall_now() - t0;
    }
  };

  // Starts the record of step s from the processors' slots (before the last phase's decision).
  auto start_record = [&](int s) {
    rec.step = s - plan.warmup;  // negative during warm-up: not handed to the sink
    rec.busy.assign(P, 0);
    rec.busy_wall.assign(P, 0);
    rec.external_load.assign(P, 0);
    rec.idle.assign(P, 0);
    rec.proc_balance.assign(P, 0);
    rec.proc_migration.assign(P, 0);
    rec.triggered.assign(P, 0);
    rec.migrations = 0;
    rec.bytes_moved = 0;
    double first = slots[0].start, last = slots[0].end, busy_sum = 0, speed_sum = 0;
    for (int p = 0; p < P; ++p) {
      const ProcessorSlot& s = slots[p];
      first = std::min(first, s.start);
      last = std::max(last, s.end);
      for (const PhaseTimes& t : s.phase) rec.busy[p] += t.busy;
      rec.busy_wall[p] = s.busy_wall;
      rec.external_load[p] = s.unloaded > 0 ? s.loaded / s.unloaded : 0;
      rec.triggered[p] = s.triggered;
      rec.migrations += s.migrated;
      rec.bytes_moved += s.bytes;
      busy_sum += rec.busy[p] * plan.speed[p];  // nominal work: busy time at speed 1
      speed_sum += plan.speed[p];
    }
    rec.compute_wall = last - first;
    rec.ideal = busy_sum / speed_sum;
    rec.serial = serial_cpu;
    rec.metrics = workload.step_metric_values(s);
    if (plan.record_modules) {
      rec.module_cost = cost[0];
      for (int ph = 1; ph < phases; ++ph)
        for (int m = 0; m < M; ++m) rec.module_cost[m] += cost[ph][m];
      rec.module_owner = owner[0];  // who ran each module (in the first phase)
    }
  };

  // Balance and copy times of the step, once its last phase's decision is taken.
  auto account_balance = [&]() {
    rec.balance = 0;
    rec.balance_wall = 0;
    phase_time.assign(static_cast<std::size_t>(phases) * P, 0.0);
    double end_wall = 0;
    for (int ph = 0; ph < phases; ++ph) {
      double most = 0, sync_wall = 0;
      end_wall = 0;
      for (int p = 0; p < P; ++p) {
        const PhaseTimes& t = slots[p].phase[ph];
        const double balance = t.balance + t.end_balance;
        rec.proc_balance[p] += balance;
        rec.proc_migration[p] += t.migration + t.end_migration;
        most = std::max(most, balance);
        sync_wall = std::max(sync_wall, t.balance_wall);
        end_wall = std::max(end_wall, t.end_balance_wall);
        phase_time[static_cast<std::size_t>(ph) * P + p] =
            t.finish + t.end_balance + t.end_migration;
      }
      rec.balance += most;  // a centralised decision: the decider's time, which all waited
      rec.balance_wall += sync_wall + end_wall;
    }
    rec.wall = rec.compute_wall + serial_wall + end_wall;  // + the last copies' wall time
    have_pending = true;
  };

  auto apply = [&](int ph, Decision& d) {
    if (!d.act) return;
    check_assignment(d.owner, M, P);
    owner[ph] = std::move(d.owner);
    lists[ph] = modules_by_processor(owner[ph], P);
    changed = true;
  };

  // After phase ph's decision: what moves before the next phase; the record on the last phase.
  auto close_phase = [&](int ph) {
    const int next = (ph + 1) % phases;
    moved.clear();
    if (phases > 1 || changed)
      for (int m = 0; m < M; ++m)
        if (owner[next][m] != where[m]) {
          moved.push_back(m);
          where[m] = owner[next][m];
        }
    changed = false;
    migrate_now = !moved.empty();
    if (ph + 1 == phases) account_balance();
  };

  // Runs list[i..] on processor p until the end or until `stop` is raised; returns where it got.
  auto run_modules = [&](int p, int s, int ph, const std::vector<int>& list, std::size_t i,
                         const std::atomic<bool>* stop, ProcessorSlot& slot) {
    double* const c = cost[ph].data();
    double wall = 0;  // kept local: run_module may alias anything
    LoadTally tally;
    // Back to back: each module's end is the next one's start, one wall clock read a module.
    double a = wall_now();
    for (; i < list.size(); ++i) {
      if (stop && stop->load(std::memory_order_relaxed)) break;
      const int m = list[i];
      const double b = run_emulated_until_end(
          emulation, p, tally, [&] { workload.run_module(m, s, ph, store.state(m)); });
      c[m] = b - a;
      wall += b - a;
      a = b;
    }
    slot.busy_wall += wall;
    slot.loaded += tally.loaded;
    slot.unloaded += tally.unloaded;
    return i;
  };

  // Zaki, Li & Parthasarathy 1997: processor p stops (at index i of its list, c0 the phase's start
  // on its CPU clock) because it finished or its group's fastest did; the group decides on its
  // unfinished modules; p copies in what it gained and runs the rest.
  auto synchronise = [&](int p, int s, int ph, std::size_t i, double c0, ProcessorSlot& slot,
                         PhaseTimes& t) {
    std::vector<int>& list = lists[ph][p];
    SyncGroup& group = *groups[ph][p / group_of_size[ph]];
    StopReport& report = reports[p];
    report.busy = thread_cpu_now() - c0;
    report.done = static_cast<int>(i);
    report.ran_seconds = report.ran_weight = 0;
    try {
      report.unrun.assign(list.begin() + static_cast<std::ptrdiff_t>(i), list.end());
      const std::vector<double>& seen = nominal_differs ? nominal[ph] : cost[ph];
      if (measured[ph]) {
        for (int m : report.unrun) unrun_cost[m] = seen[m];  // the last step's, not yet rewritten
      } else {
        for (std::size_t k = 0; k < i; ++k) {
          report.ran_seconds += cost[ph][list[k]] * plan.speed[p];
          report.ran_weight += weights[ph][list[k]];
        }
      }
    } catch (...) {
      fail(std::current_exception());
      report.unrun.clear();
    }
    if (i == list.size() && !group.stop.exchange(true, std::memory_order_acq_rel)) ++slot.triggered;
    group.barrier.arrive_and_wait();

    double arrival = 0;  // the group waits for its last processor to finish its current module
    std::size_t unfinished = 0;
    for (int q = group.first; q < group.first + group.size; ++q) {
      arrival = std::max(arrival, reports[q].busy);
      unfinished += reports[q].unrun.size();
    }
    t.finish = arrival;
    t.busy = report.busy;
    if (unfinished == 0) return;
    const double w0 = wall_now();
    const GroupDecision* applied = nullptr;
    if (redundant[ph] || p == group.first) {
      GroupViewContext ctx;
      ctx.unrun_cost = unrun_cost;
      ctx.measured = measured[ph];
      ctx.predicted = weights[ph];
      ctx.speed = plan.speed;
      ctx.topology = plan.topology;
      ctx.structure = workload.structure();
      ctx.dimensions = workload.dimensions();
      ctx.coords = coords;
      ctx.step = s;
      ctx.store = &store;
      try {
        slot.mine = decide_for_group(*dynamic[ph], group, reports, ctx);
      } catch (...) {
        fail(std::current_exception());
        slot.mine = GroupDecision{};  // nothing moves
      }
      // The first result published is the one the group applies; the others must equal it.
      const GroupDecision* first = nullptr;
      if (group.published.compare_exchange_strong(first, &slot.mine, std::memory_order_acq_rel,
                                                  std::memory_order_acquire)) {
        group.published.notify_all();
        applied = &slot.mine;
      } else {
        applied = first;
        if (!same_decision(first->decision, slot.mine.decision))
          fail(std::make_exception_ptr(
              std::logic_error("redundant decisions of one group differ (decide is not "
                               "deterministic)")));
      }
      t.balance = slot.mine.cpu;
    } else {
      while (!(applied = group.published.load(std::memory_order_acquire)))
        group.published.wait(nullptr, std::memory_order_acquire);
      t.balance = applied->cpu;  // it waited for the decider
    }
    t.balance_wall = wall_now() - w0;
    const Decision& d = applied->decision;
    if (d.act) {
      const double c2 = thread_cpu_now();
      try {
        list.resize(i);
        for (std::size_t k = 0; k < applied->modules.size(); ++k) {
          if (d.owner[k] != p) continue;
          const int m = applied->modules[k];
          list.push_back(m);
          owner[ph][m] = p;
          if (where[m] != p) {
            slot.bytes += static_cast<std::int64_t>(store.migrate(m));
            ++slot.migrated;
            where[m] = p;
          }
        }
      } catch (...) {
        fail(std::current_exception());
      }
      t.migration = thread_cpu_now() - c2;
    }
    const double c3 = thread_cpu_now();
    try {
      run_modules(p, s, ph, list, i, nullptr, slot);
    } catch (...) {
      fail(std::current_exception());
    }
    const double rest = thread_cpu_now() - c3;
    t.busy += rest;
    t.finish += t.balance + t.migration + rest;
  };

  // The serial part after phase ph of step s: the workload's end of step, records, and the
  // phase's decision when one thread takes it.
  auto end_phase = [&](int s, int ph) {
    if (error) throw std::runtime_error("module failed");
    if (in_step[ph]) {
      for (auto& g : groups[ph]) g->reset();
      check_lists(lists[ph], owner[ph]);  // the synchronisation rebuilt them
    }
    measured[ph] = 1;
    const bool last = ph + 1 == phases;
    if (last) {
      if (have_pending) finish_record();
      const double sw = wall_now(), sc = thread_cpu_now();
      workload.finish_step(s, store);
      serial_cpu = thread_cpu_now() - sc;
      serial_wall = wall_now() - sw;
      start_record(s);
    }
    end_redundant = false;
    if (dynamic[ph] && !in_step[ph]) {
      end_bytes = store.all_bytes();
      for (int p = 0; p < P; ++p) end_busy[p] = slots[p].phase[ph].busy;
      end_view =
          initial_view(workload, nominal_differs ? nominal[ph] : cost[ph], end_bytes, coords, plan);
      end_view.busy = end_busy;
      end_view.owner = owner[ph];
      end_view.step = s;
      if (redundant[ph]) {
        end_redundant = true;  // every thread decides next, then the first result is applied
        return;
      }
      const double bw = wall_now(), bc = thread_cpu_now();
      Decision d = dynamic[ph]->decide(end_view);
      const double cpu = thread_cpu_now() - bc, wall = wall_now() - bw;
      // Centralised decision: every processor waits for it.
      for (auto& q : slots) {
        q.phase[ph].end_balance = cpu;
        q.phase[ph].end_balance_wall = wall;
      }
      apply(ph, d);
    }
    close_phase(ph);
  };

  // After every thread decided the same phase end redundantly: check, apply one, close.
  auto apply_redundant = [&](int ph) {
    if (error) throw std::runtime_error("a redundant decision failed");
    for (int p = 1; p < P; ++p)
      if (!same_decision(slots[p].mine.decision, slots[0].mine.decision))
        throw std::logic_error("redundant decisions differ (decide is not deterministic)");
    apply(ph, slots[0].mine.decision);
    close_phase(ph);
  };

#pragma omp parallel num_threads(P)
  {
    const int p = omp_get_thread_num();
    try {
      for (int m : lists[0][p]) store.place(m);
    } catch (...) {
      fail(std::current_exception());
    }
#pragma omp barrier
#pragma omp single
    {
      if (error || !store.complete()) abort = true;
      if (auto team = team_size_error(P)) {
        abort = true;
        if (!error) error = std::make_exception_ptr(std::runtime_error(*team));
      }
    }
    ProcessorSlot& slot = slots[p];
    for (int s = 0; s < total && !abort; ++s) {
      slot.start = wall_now();
      slot.busy_wall = slot.loaded = slot.unloaded = 0;
      slot.migrated = slot.bytes = 0;
      slot.triggered = 0;
      for (int ph = 0; ph < phases; ++ph) {
        PhaseTimes& t = slot.phase[ph];
        t = PhaseTimes{};
        const double c0 = thread_cpu_now();
        const double w0 = slot.busy_wall;
        std::size_t i = 0;
        try {
          i = run_modules(p, s, ph, lists[ph][p], 0,
                          in_step[ph] ? &groups[ph][p / group_of_size[ph]]->stop : nullptr, slot);
        } catch (...) {
          fail(std::current_exception());
          i = lists[ph][p].size();
        }
        if (in_step[ph]) {
          synchronise(p, s, ph, i, c0, slot, t);
        } else {
          t.busy = thread_cpu_now() - c0;
          t.finish = t.busy;
        }
        if (ph + 1 == phases) slot.end = wall_now();
        // Two clocks: a module's wall time shrinks by its processor's CPU/wall ratio, so module
        // costs add up to CPU busy time when preemption inflated the wall clock.
        const double phase_wall = slot.busy_wall - w0;
        if (phase_wall > t.busy && phase_wall > 0) {
          const double scale = t.busy / phase_wall;
          for (int m : lists[ph][p]) cost[ph][m] *= scale;
        }
        if (nominal_differs)
          for (int m : lists[ph][p]) nominal[ph][m] = cost[ph][m] * plan.speed[p];
#pragma omp barrier
#pragma omp single
        {
          try {
            end_phase(s, ph);
          } catch (...) {
            if (!error) error = std::current_exception();
            abort = true;
          }
        }
        if (abort) break;
        if (end_redundant) {
          const double bw = wall_now(), bc = thread_cpu_now();
          try {
            slot.mine.decision = dynamic[ph]->decide(end_view);
          } catch (...) {
            fail(std::current_exception());
          }
          t.end_balance = thread_cpu_now() - bc;  // its own clock: nobody waits for a decider
          t.end_balance_wall = wall_now() - bw;
#pragma omp barrier
#pragma omp single
          {
            try {
              apply_redundant(ph);
            } catch (...) {
              if (!error) error = std::current_exception();
              abort = true;
            }
          }
          if (abort) break;
        }
        // Copy in the modules this processor holds in the next phase (or the next step).
        const bool last = ph + 1 == phases;
        const double mw = wall_now();
        if (migrate_now) {
          const int next = last ? 0 : ph + 1;
          const double mc = thread_cpu_now();
          std::int64_t n = 0, b = 0;
          try {
            for (int m : moved)
              if (owner[next][m] == p) {
                b += static_cast<std::int64_t>(store.migrate(m));
                ++n;
              }
          } catch (...) {
            fail(std::current_exception());
          }
          const double cpu = thread_cpu_now() - mc;
          if (last) {
            slot.tail_migration = cpu;
            slot.tail_migrated = n;
            slot.tail_bytes = b;
          } else {
            t.end_migration = cpu;
            slot.migrated += n;
            slot.bytes += b;
          }
#pragma omp barrier
        } else if (last) {
          slot.tail_migration = 0;
          slot.tail_migrated = slot.tail_bytes = 0;
        }
        if (last && p == 0) tail_wall = wall_now() - mw;
      }
    }
  }
  if (error) std::rethrow_exception(error);
  if (have_pending) finish_record();
  if (!store.complete()) throw std::logic_error("a module lost its state");
  result.steps_run = total;
  result.final_owner = owner[0];
  result.final_phase_owner = std::move(owner);
  result.run_wall = wall_now() - run_start;
  return result;
}

}  // namespace lbb
