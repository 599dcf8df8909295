#include "harness/exec/bsp_executor.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "harness/base/clock.h"
#include "harness/exec/emulated_run.h"
#include "harness/exec/step_protocol.h"
#include "harness/exec/team.h"
#include "harness/exec/wait_policy.h"

namespace lbb {

namespace {

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

// The step protocol's machine of P OpenMP threads, one a processor: each thread runs its
// processor's modules and copies in its states; a meeting is the team's barrier, where the last
// thread to arrive runs what follows once (issue 16: at most 2 bare barriers of harness a step).
class ThreadMachine final : public StepMachine {
 public:
  ThreadMachine(ProtocolState& state, ModuleStore& store);

  void run(const std::function<void(int)>& body) override { team_.run(body); }
  bool place(int p) override;
  void run_phase(int p, int s, int ph) override;
  bool meet(int p, int s, int ph, const std::function<void()>& f) override {
    return team_.serial_barrier([&] {
      serial_ = {p, s, ph};  // whose track the serial part's spans go on
      f();
    });
  }
  std::vector<double> finish_step(int s) override;
  int measure_view(int s, int, std::vector<double>&) override { return s; }
  std::optional<Decision> decide(int ph, Balancer& balancer, const LoadView& view) override;
  bool decide_everywhere(int p, int ph, Balancer& balancer, const LoadView& view,
                         const std::function<void(Decision&)>& apply) override;
  bool move(int p, int ph, std::span<const int> moved, const std::function<void()>& then) override;
  StepEnd end_step(int) override { return {serial_cpu_, wall_now() - st_.recorder.first_start()}; }
  void finish_record(StepRecord& rec) override {
    // Only a copy can lose a state (the run checks it once more at its end).
    if (rec.migrations > 0 && !store_.complete()) throw std::logic_error("a module lost its state");
  }
  // Exact where a step takes 1 ms or more: two thread CPU clock reads (0.86 us each on this VM)
  // are then at most 0.2 % of it. Shorter steps' hand-overs under 20 us count their wall time,
  // and a long one after a short one (a batched commit) its wall time, an upper bound.
  bool exact_hand_over(const StepRecord& rec) const override { return rec.wall >= 1e-3; }
  void end_run(ExecutionResult& result) override {
    if (!store_.complete()) throw std::logic_error("a module lost its state");
    result.placement = placement_;
  }

 private:
  std::size_t run_modules(int p, int s, int ph, std::size_t i, double& at,
                          const std::atomic<int>* stop, int round = 0);
  void measure_costs(int p, int ph, double phase_wall, double busy);
  void run_in_step(int p, int s, int ph);
  bool synchronise_group(int p, int s, int ph, int round, std::size_t i, double& clock);
  void report_stop(int p, int ph, int round, std::size_t i);
  const GroupDecision* group_decision(int p, int s, int ph, int round, SyncGroup& group,
                                      PhaseTimes& t);
  void take_gained(int p, int ph, std::size_t i, const GroupDecision& applied);

  ProtocolState& st_;
  ModuleStore& store_;
  const PlatformEmulation emulation_;
  Team team_;
  // Module costs on the thread CPU clock, when threads outnumber cores (see run_modules).
  const bool cpu_module_costs_;
  double placement_ = 0;
  std::vector<StopReport> reports_[2];  // per processor, by round parity (group_sync.h)
  // Per processor, where it was at its group's last synchronisation: list index and busy wall.
  std::vector<std::size_t> sync_index_;
  std::vector<double> sync_wall_;
  std::vector<OwnDecision> decisions_;
  double serial_cpu_ = 0;
  StretchClock serial_clock_;
  struct Serial {
    int p = 0, s = 0, ph = 0;
  } serial_;  // the thread that runs a meeting's serial part, and the step and phase
  alignas(64) std::vector<PhaseClocks> clocks_;  // [processor]
};

ThreadMachine::ThreadMachine(ProtocolState& state, ModuleStore& store)
    : st_(state),
      store_(store),
      emulation_(state.plan.speed, state.plan.external_load, wall_now()),
      team_(state.P, emulation_),
      cpu_module_costs_(team_.outnumbers_cores()) {
  const bool in_step = std::any_of(state.phase.begin(), state.phase.end(),
                                   [](const PhasePlan& b) { return b.balancer && b.in_step; });
  for (auto& reports : reports_) reports.resize(in_step ? st_.P : 0);
  sync_index_.assign(in_step ? st_.P : 0, 0);
  sync_wall_.assign(in_step ? st_.P : 0, 0.0);
  decisions_.resize(st_.P);
  // Where threads outnumber cores a phase preempted after a short one carries the others' time
  // slices in its wall time: exact clocks.
  clocks_.assign(st_.P, PhaseClocks{std::vector<PhaseClock>(
                            st_.phases, PhaseClock{StretchClock(cpu_module_costs_)})});
}

bool ThreadMachine::place(int p) {
  const double c0 = thread_cpu_now();
  team_.guard([&] {
    for (int m : st_.phase[0].lists[p]) store_.place(m);
  });
  const double placing = thread_cpu_now() - c0;
#pragma omp atomic
  placement_ += placing;
#pragma omp barrier
  return team_.single([&] {
    if (!store_.complete()) throw std::logic_error("a module lost its state");
  });
}

void ThreadMachine::run_phase(int p, int s, int ph) {
  ProcessorTimes& me = st_.recorder.processor(p);
  if (ph == 0) me.clear();
  PhaseTimes& t = me.phase[ph];
  const double w0 = me.busy_wall;
  double now = wall_now();  // the phase's start, then its last module's end: one read a module
  if (ph == 0) me.start = now;
  st_.timeline.resume(p, now);
  if (st_.phase[ph].in_step) {
    run_in_step(p, s, ph);
    now = wall_now();
  } else {
    StretchClock& clock = clocks_[p].phase[ph].clock;
    clock.start(now);
    team_.guard([&] { run_modules(p, s, ph, 0, now, nullptr); });
    t.busy = clock.stop(now);
    t.finish = t.busy;
  }
  if (ph + 1 == st_.phases) me.end = now;
  st_.timeline.idle_from(p, now, s, ph);
  measure_costs(p, ph, me.busy_wall - w0, t.busy);
}

// Runs list[i..] on processor p until the end or until `stop` exceeds `round`; returns where it
// got. `at`: the wall clock at the call, then the end of the last module run.
// A module's cost is its wall time, or its thread CPU time when threads outnumber cores: there a
// time slice lost to another thread lands on whichever module was running, so one module's wall
// time can be a hundred times its work, and balancers chased those spikes (issue 12).
std::size_t ThreadMachine::run_modules(int p, int s, int ph, std::size_t i, double& at,
                                       const std::atomic<int>* stop, int round) {
  const std::vector<int>& list = st_.phase[ph].lists[p];
  ProcessorTimes& me = st_.recorder.processor(p);
  double* const c = st_.phase[ph].cost.data();
  double wall = 0;  // kept local: run_module may alias anything
  LoadTally tally;
  // Back to back: each module's end is the next one's start, one clock read a module.
  double a = at;
  double cpu = cpu_module_costs_ ? thread_cpu_now() : 0.0;
  for (; i < list.size(); ++i) {
    if (stop && stop->load(std::memory_order_relaxed) > round) break;
    const int m = list[i];
    const double b = run_emulated_until_end(
        emulation_, p, tally, [&] { st_.workload.run_module(m, s, ph, store_.state(m)); });
    if (cpu_module_costs_) {
      const double now = thread_cpu_now();
      c[m] = now - cpu;
      cpu = now;
    } else {
      c[m] = b - a;
    }
    wall += b - a;
    st_.timeline.add(p, SpanKind::kModule, s, ph, m, a, b);
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
void ThreadMachine::measure_costs(int p, int ph, double phase_wall, double busy) {
  if (!cpu_module_costs_ && phase_wall > busy && phase_wall > 0) {
    const double scale = busy / phase_wall;
    for (int m : st_.phase[ph].lists[p]) st_.phase[ph].cost[m] *= scale;
  }
  if (!st_.seen_is_cost)
    for (int m : st_.phase[ph].lists[p])
      st_.phase[ph].seen[m] = st_.phase[ph].cost[m] * st_.plan.speed[p];
}

// Zaki, Li & Parthasarathy 1997: processor p runs its list in rounds (hold_sync_rounds). A round
// ends when p has run all its modules or its group's fastest has (the r-th synchronisation); the
// group then decides on its unfinished modules and p copies in what it gained. `clock` is p's
// modelled CPU time in the phase: its runs, the group's last arrival at each synchronisation, the
// decisions and copies.
void ThreadMachine::run_in_step(int p, int s, int ph) {
  const PhasePlan& b = st_.phase[ph];
  SyncGroup& group = b.group_of(p);
  PhaseTimes& t = st_.recorder.processor(p).phase[ph];
  sync_index_[p] = 0;
  sync_wall_[p] = st_.recorder.processor(p).busy_wall;
  std::size_t i = 0;
  double clock = 0;
  hold_sync_rounds(
      b.max_syncs,
      [&](int round, bool stops) {
        if (i == st_.phase[ph].lists[p].size() && !stops) return;
        std::size_t at = st_.phase[ph].lists[p].size();  // all of them when a module failed
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
bool ThreadMachine::synchronise_group(int p, int s, int ph, int round, std::size_t i,
                                      double& clock) {
  SyncGroup& group = st_.phase[ph].group_of(p);
  ProcessorTimes& me = st_.recorder.processor(p);
  PhaseTimes& t = me.phase[ph];
  report_stop(p, ph, round, i);
  reports_[round % 2][p].clock = clock;
  int expected = round;
  if (i == st_.phase[ph].lists[p].size() &&
      group.stop.compare_exchange_strong(expected, round + 1, std::memory_order_acq_rel))
    ++me.triggered;
  const double arrive = st_.timeline.on() ? wall_now() : 0.0;
  group.barrier.arrive_and_wait();
  if (st_.timeline.on()) st_.timeline.add(p, SpanKind::kWait, s, ph, -1, arrive, wall_now());
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
  const double c0 = thread_cpu_now(), w0 = st_.timeline.on() ? wall_now() : 0.0;
  team_.guard([&] { take_gained(p, ph, i, *applied); });
  const double copied = thread_cpu_now() - c0;
  if (st_.timeline.on()) st_.timeline.add(p, SpanKind::kMigration, s, ph, -1, w0, wall_now());
  t.migration += copied;
  clock += copied;
  return true;
}

// What processor p leaves for its group when it stops at index i of its list in `round`: the
// load function's inputs since its group's last synchronisation, on the wall clock that also
// decides who triggers (where threads outnumber cores: since the phase began, on the CPU clock).
void ThreadMachine::report_stop(int p, int ph, int round, std::size_t i) {
  const std::vector<int>& list = st_.phase[ph].lists[p];
  StopReport& report = reports_[round % 2][p];
  report.busy = st_.recorder.processor(p).busy_wall - sync_wall_[p];
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
    for (std::size_t k = 0; k < i; ++k) report.busy += st_.phase[ph].cost[list[k]];
  }
  const bool ok = team_.guard([&] { st_.report_rest(report, ph, p, i); });
  if (!ok) report.unrun.clear();
}

// The group's decision of `round`: p takes it (every processor of a redundant balancer, else the
// group's first), or waits for it. The first result published is the one the group applies.
const GroupDecision* ThreadMachine::group_decision(int p, int s, int ph, int round,
                                                   SyncGroup& group, PhaseTimes& t) {
  const double w0 = wall_now();
  const GroupDecision* applied = nullptr;
  bool decided = false;  // p decided (else it waited for the decider)
  std::atomic<const GroupDecision*>& published = group.published[round % 2];
  if (st_.phase[ph].redundant || p == group.first) {
    GroupViewContext ctx;
    ctx.measured = st_.phase[ph].measured;
    ctx.predicted = st_.phase[ph].weights;
    ctx.views = &st_.views;
    ctx.step = s;
    ctx.store = &store_;
    GroupDecision& mine = decisions_[p].mine[round % 2];
    decided = true;
    if (!team_.guard([&] {
          mine = decide_for_group(*st_.phase[ph].balancer, group, reports_[round % 2], ctx);
        }))
      mine = GroupDecision{};  // nothing moves
    const GroupDecision* first = nullptr;
    if (published.compare_exchange_strong(first, &mine, std::memory_order_acq_rel,
                                          std::memory_order_acquire)) {
      published.notify_all();
      if (wait_policy() == WaitPolicy::kPassive) group.decided.bump_and_wake();
      applied = &mine;
    } else {
      applied = first;  // the others must equal it
      if (!same_decision(first->decision, mine.decision))
        team_.fail(std::make_exception_ptr(std::logic_error(
            "redundant decisions of one group differ (decide is not deterministic)")));
    }
    t.balance += mine.cpu;
  } else if (wait_policy() == WaitPolicy::kPassive) {
    // The group's sleep word, which sleeps at once where libstdc++'s wait spins and yields
    // first. A decision published after the load of `seen` bumps the word after it: either the
    // load of `published` sees it or wait_while returns.
    for (;;) {
      const unsigned seen = group.decided.load();
      if ((applied = published.load(std::memory_order_acquire))) break;
      group.decided.wait_while(seen);
    }
    t.balance += applied->cpu;
  } else {
    // libstdc++'s atomic wait, not a SleepWord (sleep_word.h): a wait once a group synchronises,
    // and moving it cost every bsp step 0.12 bare barriers at P = 2 (code layout, issue 16).
    while (!(applied = published.load(std::memory_order_acquire)))
      published.wait(nullptr, std::memory_order_acquire);
    t.balance += applied->cpu;  // it waited for the decider
  }
  const double w1 = wall_now();
  t.balance_wall += w1 - w0;
  st_.timeline.add(p, decided ? SpanKind::kDecision : SpanKind::kWait, s, ph, -1, w0, w1);
  return applied;
}

// Processor p keeps its first i modules and appends those the group's decision gives it,
// copying in the states it does not hold.
void ThreadMachine::take_gained(int p, int ph, std::size_t i, const GroupDecision& applied) {
  std::vector<int>& list = st_.phase[ph].lists[p];
  ProcessorTimes& me = st_.recorder.processor(p);
  list.resize(i);
  for (std::size_t k = 0; k < applied.modules.size(); ++k) {
    if (applied.decision.owner[k] != p) continue;
    const int m = applied.modules[k];
    list.push_back(m);
    st_.phase[ph].owner[m] = p;
    if (st_.where[m] != p) {
      me.bytes += static_cast<std::int64_t>(store_.migrate(m));
      ++me.migrated;
      st_.where[m] = p;
    }
  }
}
std::optional<Decision> ThreadMachine::decide(int ph, Balancer& balancer, const LoadView& view) {
  if (st_.phase[ph].redundant) return std::nullopt;  // every thread decides next
  const double bw = wall_now(), bc = thread_cpu_now();
  Decision d = balancer.decide(view);
  const double cpu = thread_cpu_now() - bc, wall = wall_now() - bw;
  st_.timeline.add(serial_.p, SpanKind::kDecision, serial_.s, ph, -1, bw, bw + wall);
  for (int p = 0; p < st_.P; ++p) {  // centralised decision: every processor waits for it
    st_.recorder.processor(p).phase[ph].end_balance = cpu;
    st_.recorder.processor(p).phase[ph].end_balance_wall = wall;
  }
  return d;
}

// Every thread decides the phase's end on its own clock (nobody waits for a decider); after the
// barrier one checks that all agree and applies the first.
bool ThreadMachine::decide_everywhere(int p, int ph, Balancer& balancer, const LoadView& view,
                                      const std::function<void(Decision&)>& apply) {
  PhaseTimes& t = st_.recorder.processor(p).phase[ph];
  const double bw = wall_now(), bc = thread_cpu_now();
  team_.guard([&] { decisions_[p].mine[0].decision = balancer.decide(view); });
  t.end_balance = thread_cpu_now() - bc;
  t.end_balance_wall = wall_now() - bw;
  st_.timeline.add(p, SpanKind::kDecision, serial_.s, ph, -1, bw, bw + t.end_balance_wall);
  return team_.serial_barrier([&] {
    for (int q = 1; q < st_.P; ++q)
      if (!same_decision(decisions_[q].mine[0].decision, decisions_[0].mine[0].decision))
        throw std::logic_error("redundant decisions differ (decide is not deterministic)");
    apply(decisions_[0].mine[0].decision);
  });
}

// Processor p copies in the modules it holds in the next phase (or the next step); the last
// processor done runs `then` (the step's close after the last phase) before the barrier releases.
bool ThreadMachine::move(int p, int ph, std::span<const int> moved,
                         const std::function<void()>& then) {
  const std::vector<int>& next = st_.phase[(ph + 1) % st_.phases].owner;
  ProcessorTimes& me = st_.recorder.processor(p);
  const double mc = thread_cpu_now(), mw = st_.timeline.on() ? wall_now() : 0.0;
  std::int64_t n = 0, b = 0;
  team_.guard([&] {
    for (int m : moved)
      if (next[m] == p) {
        b += static_cast<std::int64_t>(store_.migrate(m));
        ++n;
      }
  });
  me.phase[ph].end_migration = thread_cpu_now() - mc;
  if (n > 0 && st_.timeline.on())
    st_.timeline.add(p, SpanKind::kMigration, serial_.s, ph, -1, mw, wall_now());
  me.migrated += n;
  me.bytes += b;
  return team_.serial_barrier(then);
}

std::vector<double> ThreadMachine::finish_step(int s) {
  const double w0 = wall_now();
  serial_clock_.start(w0);
  st_.workload.finish_step(s, store_);
  const double w1 = wall_now();
  serial_cpu_ = serial_clock_.stop(w1);
  st_.bytes = store_.all_bytes();  // what the end of step resized (bodies crossing cells)
  st_.timeline.add(serial_.p, SpanKind::kSerial, s, st_.phases - 1, -1, w0, w1);
  return st_.workload.step_metric_values(s);
}

}  // namespace

ExecutionResult BspExecutor::run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                                 StepSink& sink) {
  ProtocolState state(workload, plan, MachineTraits{});
  ThreadMachine machine(state, store);
  return StepProtocol(state, machine, sink).run();
}

}  // namespace lbb
