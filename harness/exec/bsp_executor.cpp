#include "harness/exec/bsp_executor.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "balancers/partition/block.h"
#include "core/assignment.h"
#include "harness/base/clock.h"
#include "harness/exec/conservation.h"
#include "harness/exec/emulated_run.h"
#include "harness/exec/group_sync.h"
#include "harness/exec/load_view_builder.h"
#include "harness/exec/run_context.h"

namespace lbb {

namespace {

// Flags the serial block sets every step and every processor reads after the barrier: stored
// only when they change, so that their cache line stays shared instead of crossing to each
// processor's core every step.
template <class T>
void set(T& flag, T value) {
  if (flag != value) flag = value;
}

// How one phase is balanced: its balancer, whether every thread decides, and its in-step groups.
struct PhaseBalancing {
  Balancer* balancer = nullptr;  // null: the phase keeps its assignment
  bool redundant = false;        // every thread decides; one result is applied
  bool in_step = false;  // Zaki, Li & Parthasarathy 1997: decide when a group's fastest ends
  int group_size = 1;
  int max_syncs = 1;  // per group and phase
  std::vector<std::unique_ptr<SyncGroup>> groups;
  SyncGroup& group_of(int p) const { return *groups[p / group_size]; }
};

// A processor's own decision in the current phase (published to its group, or compared with
// the others' when every thread decides), padded against false sharing. In-step rounds alternate
// between the two by parity (group_sync.h); a phase-end decision uses the first.
struct alignas(64) OwnDecision {
  GroupDecision mine[2];
};

// The clocks of one processor's phases, padded against false sharing (the vector's elements
// too: each processor's live in an allocation of their own).
struct alignas(64) PhaseClock {
  StretchClock clock;
};
struct alignas(64) PhaseClocks {
  std::vector<PhaseClock> phase;
};

// One run of the bulk-synchronous executor: the state its steps share, and the steps by name.
class BspRun : ModuleRunContext {
 public:
  BspRun(Workload& workload, ModuleStore& store, const ExecutionPlan& plan, StepSink& sink);
  ExecutionResult run();

 private:
  void partition();
  void set_up_balancing();
  void follow_balancer(int ph);
  // Inside the team, in the order one step takes them.
  void place(int p);
  bool run_step_phase(int p, int s, int ph);
  void run_phase(int p, int s, int ph);
  std::size_t run_modules(int p, int s, int ph, std::size_t i, double& at,
                          const std::atomic<int>* stop, int round = 0);
  void measure_costs(int p, int ph, double phase_wall, double busy);
  void run_in_step(int p, int s, int ph);
  bool synchronise_group(int p, int s, int ph, int round, std::size_t i, double& clock);
  void report_stop(int p, int ph, int round, std::size_t i);
  const GroupDecision* group_decision(int p, int s, int ph, int round, SyncGroup& group,
                                      PhaseTimes& t);
  void take_gained(int p, int ph, std::size_t i, const GroupDecision& applied);
  void decide(int s, int ph);  // one thread, after the phase's barrier
  void finish_step(int s);     // the workload's serial end of step; opens the record
  void record_phase_modules(int ph);
  void decide_redundantly(int p, int ph);
  void apply_redundant(int ph);  // one thread, after every thread decided
  void apply(int ph, Decision& d);
  void plan_migration(int ph);
  bool migrate(int p, int ph);
  void close_step();
  std::span<const double> seen_costs(int ph) const {
    return nominal_differs_ ? nominal_[ph] : cost_[ph];
  }

  // What one thread writes between barriers sits on cache lines of its own, away from what every
  // processor reads each step (a write there would send the line across cores each step).
  alignas(64) ExecutionResult result_;
  // Modules: sizes, coordinates, and per phase the predicted weights, owners and run lists.
  alignas(64) std::vector<std::uint64_t> bytes_;
  const std::vector<double> coords_;
  const std::optional<ModuleGraph> communication_;
  const LoadViewBuilder views_;
  std::vector<std::vector<double>> weights_;
  std::vector<std::vector<int>> owner_;
  std::vector<std::vector<std::vector<int>>> lists_;  // [phase][processor]: modules it runs
  std::vector<int> where_;                            // the processor holding each state
  // Costs measured in the last run of each phase; at nominal speed (cost x speed) for balancers.
  std::vector<std::vector<double>> cost_, nominal_;
  const bool nominal_differs_;
  // Module costs on the thread CPU clock, when threads outnumber cores (see run_modules).
  const bool cpu_module_costs_;
  std::vector<char> measured_;  // every module's cost of the phase measured once
  std::vector<PhaseBalancing> balancing_;
  std::vector<StopReport> reports_[2];  // per processor, by round parity (group_sync.h)
  // Per processor, where it was at its group's last synchronisation: list index and busy wall.
  std::vector<std::size_t> sync_index_;
  std::vector<double> sync_wall_;
  std::vector<OwnDecision> decisions_;
  // Written by one thread between barriers.
  alignas(64) std::vector<int> moved_;  // modules to copy in before the next phase
  bool migrate_now_ = false, end_redundant_ = false, changed_ = false;
  LoadView end_view_;  // the view of a phase-end decision every thread computes (redundant)
  std::vector<std::uint64_t> end_bytes_;
  std::vector<double> end_busy_;
  double serial_cpu_ = 0;
  StretchClock serial_clock_, record_clock_;
  alignas(64) std::vector<PhaseClocks> clocks_;  // [processor]
  alignas(64) StepRecord rec_;                   // the current step's, closed after its last copies
};

BspRun::BspRun(Workload& workload, ModuleStore& store, const ExecutionPlan& plan, StepSink& sink)
    : ModuleRunContext(workload, store, plan, sink),
      coords_(workload.module_coords()),
      communication_(workload.communication()),
      views_(plan.speed, plan.topology, workload.structure(), workload.dimensions(), coords_,
             communication_ ? &*communication_ : nullptr),
      nominal_differs_(
          std::any_of(plan.speed.begin(), plan.speed.end(), [](double v) { return v != 1.0; })),
      cpu_module_costs_(team_.outnumbers_cores()),
      end_busy_(plan.processors, 0.0) {
  if (static_cast<int>(plan.speed.size()) != P_) throw std::invalid_argument("speeds != P");
  if (!plan.later_phase_dynamic.empty() &&
      (!plan.dynamic || static_cast<int>(plan.later_phase_dynamic.size()) != phases_ - 1))
    throw std::invalid_argument("a workload of " + std::to_string(phases_) + " phases needs 1 + " +
                                std::to_string(phases_ - 1) +
                                " dynamic balancers, or one for all phases");
  bytes_.resize(M_);
  for (int m = 0; m < M_; ++m) bytes_[m] = workload.state_bytes(m);
  cost_.assign(phases_, std::vector<double>(M_, 0.0));
  nominal_.assign(phases_, std::vector<double>(nominal_differs_ ? M_ : 0, 0.0));
  measured_.assign(phases_, 0);
  decisions_.resize(P_);
  // Where threads outnumber cores a phase preempted after a short one carries the others' time
  // slices in its wall time: exact clocks.
  clocks_.assign(P_, PhaseClocks{std::vector<PhaseClock>(
                         phases_, PhaseClock{StretchClock(cpu_module_costs_)})});
  partition();
  set_up_balancing();
}

// Every phase is a balancing point with its own assignment (Zaki, Li & Parthasarathy 1997 balance
// TRFD's two loops separately), each started from the static partition of the phase's weights.
void BspRun::partition() {
  weights_.resize(phases_);
  owner_.resize(phases_);
  const double t0 = thread_cpu_now();
  for (int ph = 0; ph < phases_; ++ph) {
    weights_[ph] =
        phases_ == 1 ? workload_.predicted_weights() : workload_.predicted_phase_weights(ph);
    Decision d;
    if (plan_.initial) d = plan_.initial->decide(views_.view(-1, ViewLoads(weights_[ph], bytes_)));
    owner_[ph] = d.act ? std::move(d.owner) : block_owners(M_, P_);
  }
  result_.initial_partition_seconds = thread_cpu_now() - t0;
  lists_.resize(phases_);
  for (int ph = 0; ph < phases_; ++ph) {
    check_assignment(owner_[ph], M_, P_);
    lists_[ph] = modules_by_processor(owner_[ph], P_);
  }
  where_ = owner_[0];
}

void BspRun::set_up_balancing() {
  balancing_.resize(phases_);
  bool any_in_step = false;
  for (int ph = 0; ph < phases_; ++ph) {
    PhaseBalancing& b = balancing_[ph];
    b.balancer = ph > 0 && !plan_.later_phase_dynamic.empty() ? plan_.later_phase_dynamic[ph - 1]
                                                              : plan_.dynamic;
    if (!b.balancer) continue;
    follow_balancer(ph);
    any_in_step = any_in_step || b.in_step;
  }
  for (auto& reports : reports_) reports.resize(any_in_step ? P_ : 0);
  sync_index_.assign(any_in_step ? P_ : 0, 0);
  sync_wall_.assign(any_in_step ? P_ : 0, 0.0);
}

// Phase ph's synchronisation as its balancer declares it now: at set-up, and after each phase
// of an in-step balancer, which may change it at a decision (`dynamic: auto` takes its choice's).
void BspRun::follow_balancer(int ph) {
  PhaseBalancing& b = balancing_[ph];
  b.redundant = b.balancer->redundant();
  const SyncTrigger trigger = b.balancer->sync_trigger();
  b.in_step = trigger.on_fastest_finish;
  if (!b.in_step) return;
  const int size = trigger.group_size > 0 ? std::min(trigger.group_size, P_) : P_;
  if (b.groups.empty() || b.group_size != size) b.groups = make_sync_groups(P_, size);
  b.group_size = size;
  b.max_syncs = sync_limit(trigger);
}

ExecutionResult BspRun::run() {
  team_.run([&](int p) {
    const double c0 = thread_cpu_now();
    team_.guard([&] { place(p); });
    const double placing = thread_cpu_now() - c0;
#pragma omp atomic
    result_.placement += placing;
#pragma omp barrier
    if (!team_.single([&] {
          if (!store_.complete()) throw std::logic_error("a module lost its state");
        }))
      return;
    for (int s = 0; s < total_; ++s)
      for (int ph = 0; ph < phases_; ++ph)
        if (!run_step_phase(p, s, ph)) return;
  });
  if (!store_.complete()) throw std::logic_error("a module lost its state");
  result_.steps_run = total_;
  result_.work = recorder_.work();
  result_.final_owner = owner_[0];
  result_.final_phase_owner = std::move(owner_);
  result_.run_wall = wall_now() - run_start_;
  return std::move(result_);
}

void BspRun::place(int p) {
  for (int m : lists_[0][p]) store_.place(m);
}

// Phase ph of step s on processor p: run, decide, copy. False: the team stopped.
// decide() runs on whichever processor arrives last; it reads only what the barrier published.
bool BspRun::run_step_phase(int p, int s, int ph) {
  if (ph == 0) recorder_.processor(p).clear();
  run_phase(p, s, ph);
  // One barrier: the last processor to finish the phase decides (issue 16: at most 2 bare
  // barriers of harness a step).
  if (!team_.serial_barrier([&] { decide(s, ph); })) return false;
  if (end_redundant_) {
    decide_redundantly(p, ph);
    if (!team_.serial_barrier([&] { apply_redundant(ph); })) return false;
  }
  return migrate(p, ph);
}

void BspRun::run_phase(int p, int s, int ph) {
  ProcessorTimes& me = recorder_.processor(p);
  PhaseTimes& t = me.phase[ph];
  PhaseBalancing& b = balancing_[ph];
  const double w0 = me.busy_wall;
  double now = wall_now();  // the phase's start, then its last module's end: one read a module
  if (ph == 0) me.start = now;
  if (b.in_step) {
    run_in_step(p, s, ph);
    now = wall_now();
  } else {
    StretchClock& clock = clocks_[p].phase[ph].clock;
    clock.start(now);
    team_.guard([&] { run_modules(p, s, ph, 0, now, nullptr); });
    t.busy = clock.stop(now);
    t.finish = t.busy;
  }
  if (ph + 1 == phases_) me.end = now;
  measure_costs(p, ph, me.busy_wall - w0, t.busy);
}

// Runs list[i..] on processor p until the end or until `stop` exceeds `round`; returns where it
// got. `at`: the wall clock at the call, then the end of the last module run.
// A module's cost is its wall time, or its thread CPU time when threads outnumber cores: there a
// time slice lost to another thread lands on whichever module was running, so one module's wall
// time can be a hundred times its work, and balancers chased those spikes (issue 12).
std::size_t BspRun::run_modules(int p, int s, int ph, std::size_t i, double& at,
                                const std::atomic<int>* stop, int round) {
  const std::vector<int>& list = lists_[ph][p];
  ProcessorTimes& me = recorder_.processor(p);
  double* const c = cost_[ph].data();
  double wall = 0;  // kept local: run_module may alias anything
  LoadTally tally;
  // Back to back: each module's end is the next one's start, one clock read a module.
  double a = at;
  double cpu = cpu_module_costs_ ? thread_cpu_now() : 0.0;
  for (; i < list.size(); ++i) {
    if (stop && stop->load(std::memory_order_relaxed) > round) break;
    const int m = list[i];
    const double b = run_emulated_until_end(
        emulation_, p, tally, [&] { workload_.run_module(m, s, ph, store_.state(m)); });
    if (cpu_module_costs_) {
      const double now = thread_cpu_now();
      c[m] = now - cpu;
      cpu = now;
    } else {
      c[m] = b - a;
    }
    wall += b - a;
    a = b;
  }
  at = a;
  me.busy_wall += wall;
  me.load.loaded += tally.loaded;
  me.load.unloaded += tally.unloaded;
  return i;
}

// Two clocks: a module's wall time shrinks by its processor's CPU/wall ratio, so module costs add
// up to CPU busy time when preemption inflated the wall clock; balancers see nominal costs.
void BspRun::measure_costs(int p, int ph, double phase_wall, double busy) {
  if (!cpu_module_costs_ && phase_wall > busy && phase_wall > 0) {
    const double scale = busy / phase_wall;
    for (int m : lists_[ph][p]) cost_[ph][m] *= scale;
  }
  if (nominal_differs_)
    for (int m : lists_[ph][p]) nominal_[ph][m] = cost_[ph][m] * plan_.speed[p];
}

// Zaki, Li & Parthasarathy 1997: processor p runs its list in rounds (hold_sync_rounds). A round
// ends when p has run all its modules or its group's fastest has (the r-th synchronisation); the
// group then decides on its unfinished modules and p copies in what it gained. `clock` is p's
// modelled CPU time in the phase: its runs, the group's last arrival at each synchronisation, the
// decisions and copies.
void BspRun::run_in_step(int p, int s, int ph) {
  const PhaseBalancing& b = balancing_[ph];
  SyncGroup& group = b.group_of(p);
  PhaseTimes& t = recorder_.processor(p).phase[ph];
  sync_index_[p] = 0;
  sync_wall_[p] = recorder_.processor(p).busy_wall;
  std::size_t i = 0;
  double clock = 0;
  hold_sync_rounds(
      b.max_syncs,
      [&](int round, bool stops) {
        if (i == lists_[ph][p].size() && !stops) return;
        std::size_t at = lists_[ph][p].size();  // all of them when a module failed
        const double c0 = thread_cpu_now();
        double now = wall_now();
        team_.guard(
            [&] { at = run_modules(p, s, ph, i, now, stops ? &group.stop : nullptr, round); });
        const double ran = thread_cpu_now() - c0;
        t.busy += ran;
        clock += ran;
        i = at;
      },
      [&](int round) { return synchronise_group(p, s, ph, round, i, clock); });
  t.finish = clock;
}

// Synchronisation `round` of p's group, p stopped at index i of its list. True when the group
// goes on to another round; false when nothing was left or its decision moved nothing.
bool BspRun::synchronise_group(int p, int s, int ph, int round, std::size_t i, double& clock) {
  SyncGroup& group = balancing_[ph].group_of(p);
  ProcessorTimes& me = recorder_.processor(p);
  PhaseTimes& t = me.phase[ph];
  report_stop(p, ph, round, i);
  reports_[round % 2][p].clock = clock;
  int expected = round;
  if (i == lists_[ph][p].size() &&
      group.stop.compare_exchange_strong(expected, round + 1, std::memory_order_acq_rel))
    ++me.triggered;
  group.barrier.arrive_and_wait();
  // Every member is done with round - 1: its slot is free for round + 1.
  if (p == group.first) group.published[(round + 1) % 2].store(nullptr, std::memory_order_relaxed);
  double arrival = 0;  // the group waits for its last processor to finish its current module
  std::size_t unfinished = 0;
  for (int q = group.first; q < group.first + group.size; ++q) {
    arrival = std::max(arrival, reports_[round % 2][q].clock);
    unfinished += reports_[round % 2][q].unrun.size();
  }
  clock = arrival;
  if (unfinished == 0) return false;
  const double balance = t.balance;
  const GroupDecision* applied = group_decision(p, s, ph, round, group, t);
  clock += t.balance - balance;
  sync_index_[p] = i;
  sync_wall_[p] = me.busy_wall;
  if (!applied->decision.act) return false;
  const double c0 = thread_cpu_now();
  team_.guard([&] { take_gained(p, ph, i, *applied); });
  const double copied = thread_cpu_now() - c0;
  t.migration += copied;
  clock += copied;
  return true;
}

// What processor p leaves for its group when it stops at index i of its list in `round`: the
// load function's inputs since its group's last synchronisation, on the wall clock that also
// decides who triggers (where threads outnumber cores: since the phase began, on the CPU clock).
void BspRun::report_stop(int p, int ph, int round, std::size_t i) {
  const std::vector<int>& list = lists_[ph][p];
  StopReport& report = reports_[round % 2][p];
  report.busy = recorder_.processor(p).busy_wall - sync_wall_[p];
  report.done = static_cast<int>(i - sync_index_[p]);
  // Where threads outnumber cores the wall time holds the other threads' time slices, and what a
  // thread ran since the last synchronisation is what the scheduler let it run: rated so, a
  // preempted processor lost its modules to one that ran alone (issue 35: 64 equal modules on 8
  // threads ended [8, 16, 8, 7, 7, 7, 7, 4]). There the profile is the phase's so far (the paper
  // allows any part of the history), on the thread CPU clock: the modules it ran (the list's
  // first i) and their CPU seconds.
  if (cpu_module_costs_) {
    report.done = static_cast<int>(i);
    report.busy = 0;
    for (std::size_t k = 0; k < i; ++k) report.busy += cost_[ph][list[k]];
  }
  report.ran_seconds = report.ran_weight = 0;
  const bool ok = team_.guard([&] {
    report.unrun.assign(list.begin() + static_cast<std::ptrdiff_t>(i), list.end());
    report.unrun_cost.clear();
    const std::span<const double> seen = seen_costs(ph);
    if (measured_[ph]) {
      for (int m : report.unrun) report.unrun_cost.push_back(seen[m]);  // the last step's
    } else {
      for (std::size_t k = 0; k < i; ++k) {
        report.ran_seconds += cost_[ph][list[k]] * plan_.speed[p];
        report.ran_weight += weights_[ph][list[k]];
      }
    }
  });
  if (!ok) report.unrun.clear();
}

// The group's decision of `round`: p takes it (every processor of a redundant balancer, else the
// group's first), or waits for it. The first result published is the one the group applies.
const GroupDecision* BspRun::group_decision(int p, int s, int ph, int round, SyncGroup& group,
                                            PhaseTimes& t) {
  const double w0 = wall_now();
  const GroupDecision* applied = nullptr;
  std::atomic<const GroupDecision*>& published = group.published[round % 2];
  if (balancing_[ph].redundant || p == group.first) {
    GroupViewContext ctx;
    ctx.measured = measured_[ph];
    ctx.predicted = weights_[ph];
    ctx.views = &views_;
    ctx.step = s;
    ctx.store = &store_;
    GroupDecision& mine = decisions_[p].mine[round % 2];
    if (!team_.guard([&] {
          mine = decide_for_group(*balancing_[ph].balancer, group, reports_[round % 2], ctx);
        }))
      mine = GroupDecision{};  // nothing moves
    const GroupDecision* first = nullptr;
    if (published.compare_exchange_strong(first, &mine, std::memory_order_acq_rel,
                                          std::memory_order_acquire)) {
      published.notify_all();
      applied = &mine;
    } else {
      applied = first;  // the others must equal it
      if (!same_decision(first->decision, mine.decision))
        team_.fail(std::make_exception_ptr(std::logic_error(
            "redundant decisions of one group differ (decide is not deterministic)")));
    }
    t.balance += mine.cpu;
  } else {
    // libstdc++'s atomic wait, not a SleepWord (sleep_word.h): a wait once a group synchronises,
    // and moving it cost every bsp step 0.12 bare barriers at P = 2 (code layout, issue 16).
    while (!(applied = published.load(std::memory_order_acquire)))
      published.wait(nullptr, std::memory_order_acquire);
    t.balance += applied->cpu;  // it waited for the decider
  }
  t.balance_wall += wall_now() - w0;
  return applied;
}

// Processor p keeps its first i modules and appends those the group's decision gives it,
// copying in the states it does not hold.
void BspRun::take_gained(int p, int ph, std::size_t i, const GroupDecision& applied) {
  std::vector<int>& list = lists_[ph][p];
  ProcessorTimes& me = recorder_.processor(p);
  list.resize(i);
  for (std::size_t k = 0; k < applied.modules.size(); ++k) {
    if (applied.decision.owner[k] != p) continue;
    const int m = applied.modules[k];
    list.push_back(m);
    owner_[ph][m] = p;
    if (where_[m] != p) {
      me.bytes += static_cast<std::int64_t>(store_.migrate(m));
      ++me.migrated;
      where_[m] = p;
    }
  }
}

// After phase ph of step s, on one thread: the workload's end of step on the last phase, and the
// phase's decision when one thread takes it (every thread's, next, when the balancer is redundant).
void BspRun::decide(int s, int ph) {
  PhaseBalancing& b = balancing_[ph];
  if (b.in_step) {
    for (auto& g : b.groups) g->reset();
    check_lists(lists_[ph], owner_[ph]);  // the synchronisation rebuilt them
    follow_balancer(ph);
  }
  set(measured_[ph], char{1});
  if (plan_.record_modules && phases_ > 1) record_phase_modules(ph);
  if (ph + 1 == phases_) finish_step(s);
  set(end_redundant_, false);
  if (b.balancer && !b.in_step) {
    end_bytes_ = store_.all_bytes();
    for (int p = 0; p < P_; ++p) end_busy_[p] = recorder_.processor(p).phase[ph].busy;
    end_view_ = views_.view(
        s, ViewLoads(seen_costs(ph), end_bytes_).owners(owner_[ph]).busy_times(end_busy_));
    if (b.redundant) {
      end_redundant_ = true;  // every thread decides next, then the first result is applied
      return;
    }
    const double bw = wall_now(), bc = thread_cpu_now();
    Decision d = b.balancer->decide(end_view_);
    const double cpu = thread_cpu_now() - bc, wall = wall_now() - bw;
    for (int p = 0; p < P_; ++p) {  // centralised decision: every processor waits for it
      recorder_.processor(p).phase[ph].end_balance = cpu;
      recorder_.processor(p).phase[ph].end_balance_wall = wall;
    }
    apply(ph, d);
  }
  plan_migration(ph);
}

// Phase ph's module costs and the processors that ran them, before its decision changes them.
void BspRun::record_phase_modules(int ph) {
  rec_.phase_module_cost.resize(static_cast<std::size_t>(phases_) * M_);
  rec_.phase_module_owner.resize(rec_.phase_module_cost.size());
  const auto at = static_cast<std::ptrdiff_t>(ph) * M_;
  std::copy(cost_[ph].begin(), cost_[ph].end(), rec_.phase_module_cost.begin() + at);
  std::copy(owner_[ph].begin(), owner_[ph].end(), rec_.phase_module_owner.begin() + at);
}

void BspRun::finish_step(int s) {
  serial_clock_.start();
  workload_.finish_step(s, store_);
  serial_cpu_ = serial_clock_.stop();
  rec_.step = s - plan_.warmup;  // negative during warm-up: not handed to the sink
  rec_.metrics = workload_.step_metric_values(s);
  if (plan_.record_modules) {
    rec_.module_cost = cost_[0];
    for (int ph = 1; ph < phases_; ++ph)
      for (int m = 0; m < M_; ++m) rec_.module_cost[m] += cost_[ph][m];
    rec_.module_owner = owner_[0];  // who ran each module (in the first phase)
  }
}

void BspRun::decide_redundantly(int p, int ph) {
  PhaseTimes& t = recorder_.processor(p).phase[ph];
  const double bw = wall_now(), bc = thread_cpu_now();
  team_.guard([&] { decisions_[p].mine[0].decision = balancing_[ph].balancer->decide(end_view_); });
  t.end_balance = thread_cpu_now() - bc;  // its own clock: nobody waits for a decider
  t.end_balance_wall = wall_now() - bw;
}

// After every thread decided the same phase end redundantly: check, apply one, plan the copies.
void BspRun::apply_redundant(int ph) {
  for (int p = 1; p < P_; ++p)
    if (!same_decision(decisions_[p].mine[0].decision, decisions_[0].mine[0].decision))
      throw std::logic_error("redundant decisions differ (decide is not deterministic)");
  apply(ph, decisions_[0].mine[0].decision);
  plan_migration(ph);
}

void BspRun::apply(int ph, Decision& d) {
  add_predictions(rec_, d.predicted_before, d.predicted_after);
  if (!d.act) return;
  check_assignment(d.owner, M_, P_);
  owner_[ph] = std::move(d.owner);
  lists_[ph] = modules_by_processor(owner_[ph], P_);
  changed_ = true;
}

// After phase ph's decision: what moves before the next phase (of this step or the next). The
// last phase's record closes here when nothing moves, else when the last copy is made.
void BspRun::plan_migration(int ph) {
  const int next = (ph + 1) % phases_;
  moved_.clear();
  if (phases_ > 1 || changed_)
    for (int m = 0; m < M_; ++m)
      if (owner_[next][m] != where_[m]) {
        moved_.push_back(m);
        where_[m] = owner_[next][m];
      }
  set(changed_, false);
  set(migrate_now_, !moved_.empty());
  if (ph + 1 == phases_ && !migrate_now_) close_step();
}

// Processor p copies in the modules it holds in the next phase (or the next step); the last
// processor done with the last phase's copies closes the step, before the barrier releases any.
bool BspRun::migrate(int p, int ph) {
  if (!migrate_now_) return true;
  const int next = (ph + 1) % phases_;
  ProcessorTimes& me = recorder_.processor(p);
  const double mc = thread_cpu_now();
  std::int64_t n = 0, b = 0;
  team_.guard([&] {
    for (int m : moved_)
      if (owner_[next][m] == p) {
        b += static_cast<std::int64_t>(store_.migrate(m));
        ++n;
      }
  });
  me.phase[ph].end_migration = thread_cpu_now() - mc;
  me.migrated += n;
  me.bytes += b;
  return team_.serial_barrier([&] {
    if (ph + 1 == phases_) close_step();
  });
}

// The step's record is complete: its last copies are made. Hands it on (not during warm-up).
void BspRun::close_step() {
  recorder_.close(rec_, serial_cpu_, wall_now() - recorder_.first_start());
  // Only a copy can lose a state (the run checks it once more at its end).
  if (rec_.migrations > 0 && !store_.complete()) throw std::logic_error("a module lost its state");
  result_.migrations += rec_.migrations;
  result_.bytes_moved += rec_.bytes_moved;
  // Exact where a step takes 1 ms or more: two thread CPU clock reads (0.86 us each on this VM)
  // are then at most 0.2 % of it. Shorter steps' hand-overs under 20 us count their wall time,
  // and a long one after a short one (a batched commit) its wall time, an upper bound.
  record_clock_.set_exact(rec_.wall >= 1e-3);
  if (rec_.step >= 0) record_step(sink_, rec_, result_.record_seconds, record_clock_);
  rec_.predicted_before = rec_.predicted_after = StepRecord{}.predicted_before;
}

}  // namespace

ExecutionResult BspExecutor::run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                                 StepSink& sink) {
  return BspRun(workload, store, plan, sink).run();
}

}  // namespace lbb
