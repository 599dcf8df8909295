#include "harness/sim/sim_run.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <optional>
#include <queue>
#include <span>
#include <stdexcept>
#include <string>

#include "balancers/in_step/zaki_cost_model.h"
#include "harness/base/clock.h"
#include "harness/base/platform_emulation.h"
#include "harness/exec/step_protocol.h"
#include "harness/sim/network_fit.h"
#include "harness/sim/schedule_model.h"

namespace lbb {

namespace {

// Zaki, Li & Parthasarathy 1997's scheme of an in-step balancer, from what it declares.
ProfiledScheme scheme_of(const Balancer& b) {
  const bool global = b.sync_trigger().group_size == 0;
  if (b.redundant()) return global ? ProfiledScheme::kGDDLB : ProfiledScheme::kLDDLB;
  return global ? ProfiledScheme::kGCDLB : ProfiledScheme::kLCDLB;
}

// Finish times of processors sharing a machine: while n are busy each advances its work at
// 1 / slowdown(n) (processors of no work are not busy).
std::vector<double> contended_finish(const std::vector<double>& work, const SimSettings& s) {
  std::vector<int> order(work.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return work[a] < work[b]; });
  int busy =
      static_cast<int>(std::count_if(work.begin(), work.end(), [](double w) { return w > 0; }));
  std::vector<double> finish(work.size(), 0.0);
  double t = 0, done = 0;
  for (int p : order) {
    if (work[p] <= 0) continue;
    t += (work[p] - done) * s.slowdown(busy);
    done = work[p];
    finish[p] = t;
    --busy;
  }
  return finish;
}

// Franklin & Govindan 1995, Fig. 4: what each processor pays to receive every other holder's
// modules before a step (nothing when it holds none: it computes nothing).
std::vector<double> exchange_seconds(std::span<const int> owner,
                                     std::span<const std::uint64_t> bytes, int processors,
                                     const SimSettings& s) {
  std::vector<double> held(processors, 0.0);
  std::vector<char> holds(processors, 0);
  double total = 0;
  for (std::size_t m = 0; m < owner.size(); ++m) {
    held[owner[m]] += static_cast<double>(bytes[m]);
    holds[owner[m]] = 1;
    total += static_cast<double>(bytes[m]);
  }
  const int holders = static_cast<int>(std::count(holds.begin(), holds.end(), 1));
  std::vector<double> seconds(processors, 0.0);
  for (int p = 0; p < processors; ++p)
    if (holds[p]) seconds[p] = s.exchange_seconds(holders - 1, total - held[p]);
  return seconds;
}

// What the step's charges added, summed over processors (the executor's metrics).
struct SimCharges {
  double migration = 0, synchronisation = 0, decision = 0, contention = 0, exchange = 0;
};

// The step protocol's machine of P simulated processors: one agent, which models every
// processor's modules, groups, decisions and moves on their clocks and charges what they cost.
class SimMachine final : public StepMachine {
 public:
  SimMachine(ProtocolState& state, const SimSettings& settings, CostStream& costs,
             const ScheduleChoice* schedule);

  void run(const std::function<void(int)>& body) override { body(0); }
  bool place(int) override { return true; }
  void run_phase(int, int s, int ph) override;
  bool meet(int, int, int, const std::function<void()>& f) override {
    f();
    return true;
  }
  // No kernel ran: the workload's own step metrics are unknown; a recording's state sizes are
  // those of its step's end.
  std::vector<double> finish_step(int s) override {
    if (const auto b = costs_.state_bytes(s); b.size() == st_.bytes.size())
      st_.bytes.assign(b.begin(), b.end());
    return std::vector<double>(st_.workload.step_metrics().size(), std::nan(""));
  }
  int measure_view(int s, int ph, std::vector<double>& busy) override;
  std::optional<Decision> decide(int ph, Balancer& balancer, const LoadView& view) override;
  bool move(int, int ph, std::span<const int> moved, const std::function<void()>& then) override;
  StepEnd end_step(int s) override;
  void finish_record(StepRecord& rec) override;
  void end_run(ExecutionResult& result) override { result.record_build_seconds = build_; }
  std::span<const int> start_owner(int ph) const override { return costs_.start_owner(ph); }

 private:
  void start_step();
  void run_bulk(int ph);
  void run_chunks(int s, int ph);
  void run_group(int s, int ph, SyncGroup& group);
  void run_round(int ph, const SyncGroup& group, bool stops);
  bool synchronise(int s, int ph, const SyncGroup& group);
  void charge_group_decision(int ph, const SyncGroup& group, const GroupDecision& d,
                             double seconds);
  void copy(int m, int to, double& charge);
  double rank_messages_seconds(int s) const;
  double on(int m, int p) const { return nominal_[m] / rate_[p]; }  // seconds m takes on p

  ProtocolState& st_;
  const SimSettings& settings_;
  CostStream& costs_;
  std::optional<ScheduleChoice> schedule_;  // a loop schedule
  std::optional<ChunkCalculator> chunks_;   // its technique's hand-out (not the runtime's)
  // Per processor, in an in-step phase: where it is in its list and on its modelled clock, and
  // where it was at its group's last synchronisation.
  struct InStepPlace {
    std::size_t at = 0, since = 0;
    double clock = 0, busy = 0, busy_since = 0;
  };
  std::vector<InStepPlace> place_;
  std::vector<StopReport> reports_;             // per processor, of its group's synchronisation
  std::vector<double> nominal_, level_, rate_;  // this step's; per processor: load, speed/(1+L)
  std::vector<double> stretch_;                 // per processor: the contention's slowdown
  SimCharges charges_;
  double clock_ = 0;                    // modelled time at the step's start
  double build_ = 0, build_start_ = 0;  // CPU building records from the model (run --costs)
};

SimMachine::SimMachine(ProtocolState& state, const SimSettings& settings, CostStream& costs,
                       const ScheduleChoice* schedule)
    : st_(state),
      settings_(settings),
      costs_(costs),
      place_(state.P),
      reports_(state.P),
      level_(state.P, 0.0),
      rate_(state.P, 1.0),
      stretch_(state.P, 1.0) {
  if (schedule) schedule_ = *schedule;
  if (schedule && schedule->kind == InStepSchedule::kChunked)
    chunks_.emplace(schedule->technique, schedule->params, state.plan.speed);
  if (costs.steps() >= 0 && costs.steps() < st_.total)
    throw std::invalid_argument("the cost source has " + std::to_string(costs.steps()) +
                                " steps; the run needs " + std::to_string(st_.total));
}

void SimMachine::start_step() {
  // External load as real runs draw it (harness/base/platform_emulation.h), at the modelled time.
  const PlatformEmulation emulation(st_.plan.speed, st_.plan.external_load, 0.0);
  for (int p = 0; p < st_.P; ++p) {
    level_[p] = emulation.load_at(p, clock_);
    rate_[p] = st_.plan.speed[p] / (1.0 + level_[p]);
  }
  st_.recorder.clear();
  charges_ = {};
}

// Phase ph of step s: its modules run (bulk, or in-step groups), then what a real run measures:
// each module's cost on whoever ran it, at nominal speed.
void SimMachine::run_phase(int, int s, int ph) {
  if (ph == 0) start_step();
  const std::vector<double>& nominal = costs_.nominal(s, ph);
  if (static_cast<int>(nominal.size()) != st_.M)
    throw std::logic_error("the cost source gave " + std::to_string(nominal.size()) +
                           " costs for " + std::to_string(st_.M) + " modules");
  nominal_ = nominal;
  std::fill(stretch_.begin(), stretch_.end(), 1.0);
  PhasePlan& b = st_.phase[ph];
  if (schedule_) {
    run_chunks(s, ph);
  } else if (b.in_step) {
    for (auto& group : b.groups) run_group(s, ph, *group);
  } else {
    run_bulk(ph);
  }
  for (int m = 0; m < st_.M; ++m) {
    const int p = b.owner[m];
    b.seen[m] = nominal_[m] * (1.0 + level_[p]) * stretch_[p];
  }
}

// Every processor runs its modules, after the step's exchange when charged; contention stretches
// them by the processors busy meanwhile.
void SimMachine::run_bulk(int ph) {
  PhasePlan& b = st_.phase[ph];
  std::vector<double> exchange(st_.P, 0.0);
  if (settings_.exchange_all && ph == 0)
    exchange = exchange_seconds(b.owner, st_.bytes, st_.P, settings_);
  std::vector<double> work(st_.P, 0.0);
  for (int p = 0; p < st_.P; ++p)
    for (int m : b.lists[p]) work[p] += b.cost[m] = on(m, p);
  std::vector<double> busy = work;
  if (settings_.contention > 0) busy = contended_finish(work, settings_);
  for (int p = 0; p < st_.P; ++p) {
    stretch_[p] = busy[p] != work[p] ? busy[p] / work[p] : 1.0;
    if (busy[p] != work[p])
      for (int m : b.lists[p]) b.cost[m] *= stretch_[p];
    charges_.contention += busy[p] - work[p];
    PhaseTimes& t = st_.recorder.processor(p).phase[ph];
    t.busy = busy[p];
    t.finish = exchange[p] + busy[p];
    charges_.exchange += exchange[p];
  }
}

// A loop schedule's phase: the processors, earliest clock first (the lower id on a tie), each
// reporting the chunk it just ended (to a technique) and asking for its next one at its clock
// (the technique's, or the OpenMP runtime's hand-out), until none is left for it; who ran a module
// is its owner in the phase. A module that may not move (vt's migratable: false) runs on its owner
// before that processor asks for a chunk, and the loop hands out the others: the static part first,
// then the dynamic one, as in hybrid static/dynamic scheduling (Donfack, Grigori, Gropp & Kale
// 2012).
void SimMachine::run_chunks(int s, int ph) {
  PhasePlan& b = st_.phase[ph];
  std::vector<int> loop;  // the loop's iterations: the modules that may move
  std::vector<double> busy(st_.P, 0.0);
  for (int m = 0; m < st_.M; ++m)
    if (st_.migratable.empty() || st_.migratable[m])
      loop.push_back(m);
    else
      busy[b.owner[m]] += b.cost[m] = on(m, b.owner[m]);
  const int n = static_cast<int>(loop.size());
  if (chunks_) chunks_->start(n);
  const std::function<Chunk(int, double)> take =
      chunks_ ? [this](int p, double clock) { return chunks_->take(p, clock); }
              : openmp_hand_out(*schedule_, n, st_.P);
  using Event = std::pair<double, int>;  // (clock, processor)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> idle;
  std::vector<ChunkTiming> pending(st_.P);
  for (int p = 0; p < st_.P; ++p) idle.push({busy[p], p});
  int handed = st_.M - static_cast<int>(loop.size());
  while (!idle.empty()) {
    const auto [clock, p] = idle.top();
    idle.pop();
    if (pending[p].iterations > 0 && chunks_) chunks_->finished(p, pending[p]);
    const Chunk c = take(p, clock);
    if (c.count == 0) {
      PhaseTimes& t = st_.recorder.processor(p).phase[ph];
      t.busy = busy[p];
      t.finish = clock;
      continue;
    }
    ChunkTiming chunk{c.count, 0, 0, settings_.latency};
    for (int m : std::span(loop).subspan(c.first, c.count)) {
      b.owner[m] = p;
      b.cost[m] = on(m, p);
      chunk.seconds += b.cost[m];
      chunk.square_seconds += b.cost[m] * b.cost[m];
    }
    handed += c.count;
    chunk.elapsed += chunk.seconds;
    busy[p] += chunk.seconds;
    charges_.synchronisation += settings_.latency;
    pending[p] = chunk;
    idle.push({clock + chunk.elapsed, p});
  }
  if (handed != st_.M)  // the technique handed out every module once, or the run fails
    throw std::logic_error("loop schedule handed out " + std::to_string(handed) + " of " +
                           std::to_string(st_.M) + " modules in step " + std::to_string(s));
}

// Module m's state is copied to processor `to`, charged to the receiver: one message at the
// network's rates when it crosses ranks.
void SimMachine::copy(int m, int to, double& charge) {
  const double bytes = static_cast<double>(st_.bytes[m]);
  const double seconds = settings_.across_ranks(st_.where[m], to)
                             ? settings_.network_seconds(1, bytes)
                             : settings_.migration_seconds(1, bytes);
  charge += seconds;
  charges_.migration += seconds;
  ProcessorTimes& t = st_.recorder.processor(to);
  ++t.migrated;
  t.bytes += static_cast<std::int64_t>(st_.bytes[m]);
  st_.where[m] = to;
}

// After a phase's decision: the states the next phase's owners lack are copied to them, charged
// to the receivers after the phase.
bool SimMachine::move(int, int ph, std::span<const int> moved, const std::function<void()>& then) {
  const std::vector<int>& owner = st_.phase[(ph + 1) % st_.phases].owner;
  for (int m : moved) copy(m, owner[m], st_.recorder.processor(owner[m]).phase[ph].end_migration);
  then();
  return true;
}

// Zaki, Li & Parthasarathy 1997 on a group, in the rounds the threads hold (hold_sync_rounds):
// each round runs until the group's fastest has run all its modules; the group then decides on
// the rest, pays the scheme's synchronisation and instruction messages and the copies, and goes
// on, until a decision moves nothing or max_syncs synchronisations were held.
void SimMachine::run_group(int s, int ph, SyncGroup& group) {
  const int first = group.first, last = group.first + group.size;
  for (int q = first; q < last; ++q) place_[q] = InStepPlace{};
  hold_sync_rounds(
      st_.phase[ph].max_syncs, [&](int, bool stops) { run_round(ph, group, stops); },
      [&](int) { return synchronise(s, ph, group); });
  for (int q = first; q < last; ++q) {
    PhaseTimes& t = st_.recorder.processor(q).phase[ph];
    t.busy = place_[q].busy;
    t.finish = place_[q].clock;
  }
}

// Each processor of the group runs on from where it stopped: with `stops`, until the group's
// fastest has run all its modules (it triggers) and every other has finished the module it was
// running then, on the modelled clocks; else to the end of its list.
void SimMachine::run_round(int ph, const SyncGroup& group, bool stops) {
  PhasePlan& b = st_.phase[ph];
  const int first = group.first, last = group.first + group.size;
  double fastest = INFINITY;
  int trigger = first;
  for (int q = first; stops && q < last; ++q) {
    double end = place_[q].clock;
    for (std::size_t i = place_[q].at; i < b.lists[q].size(); ++i) end += on(b.lists[q][i], q);
    if (end < fastest) fastest = end, trigger = q;
  }
  if (stops) ++st_.recorder.processor(trigger).triggered;
  for (int q = first; q < last; ++q) {
    InStepPlace& at = place_[q];
    const std::vector<int>& list = b.lists[q];
    while (at.at < list.size() && (!stops || q == trigger || at.clock < fastest)) {
      const int m = list[at.at++];
      b.cost[m] = on(m, q);
      at.clock += b.cost[m];
      at.busy += b.cost[m];
    }
  }
}

// The group waits for its last processor, decides on its unfinished modules from what each
// reports since the last synchronisation, and pays for it. True: another round follows.
bool SimMachine::synchronise(int s, int ph, const SyncGroup& group) {
  const PhasePlan& b = st_.phase[ph];
  const int first = group.first, last = group.first + group.size;
  double arrival = 0;
  std::size_t unfinished = 0;
  for (int q = first; q < last; ++q) {
    const InStepPlace& at = place_[q];
    StopReport& r = reports_[q];
    r.busy = at.busy - at.busy_since;
    r.done = static_cast<int>(at.at - at.since);
    r.clock = at.clock;
    st_.report_rest(r, ph, q, at.at);
    arrival = std::max(arrival, at.clock);
    unfinished += r.unrun.size();
  }
  for (int q = first; q < last; ++q) {
    InStepPlace& at = place_[q];
    at.clock = arrival;
    at.since = at.at;
    at.busy_since = at.busy;
  }
  if (unfinished == 0) return false;
  GroupViewContext ctx;
  ctx.measured = b.measured;
  ctx.predicted = b.weights;
  ctx.views = &st_.views;
  ctx.step = s;
  ctx.bytes = st_.bytes;
  const GroupDecision d = decide_for_group(*b.balancer, group, reports_, ctx);
  std::vector<double> paid(group.size);
  for (int q = first; q < last; ++q) {
    const PhaseTimes& t = st_.recorder.processor(q).phase[ph];
    paid[q - first] = t.balance + t.migration;
  }
  charge_group_decision(ph, group, d, settings_.decision_charge(d.cpu));
  for (int q = first; q < last; ++q) {
    const PhaseTimes& t = st_.recorder.processor(q).phase[ph];
    place_[q].clock += t.balance + t.migration - paid[q - first];
  }
  return d.decision.act;
}

// The group's decision: every processor of the group waits for it (centralised) or computes it
// (distributed), and pays the scheme's synchronisation and instruction messages (Zaki et al.'s
// cost model); each receiver pays its copies. An acting decision leaves each list what its
// processor ran, then what it gained (as the bsp executor's lists).
void SimMachine::charge_group_decision(int ph, const SyncGroup& group, const GroupDecision& d,
                                       double seconds) {
  PhasePlan& b = st_.phase[ph];
  const int first = group.first, last = group.first + group.size;
  std::vector<char> instructed(st_.P, 0);
  if (d.decision.act) {
    for (int q = first; q < last; ++q) b.lists[q].resize(place_[q].at);
    for (std::size_t k = 0; k < d.modules.size(); ++k) {
      const int m = d.modules[k], to = d.decision.owner[k];
      if (to != b.owner[m]) {
        instructed[to] = instructed[b.owner[m]] = 1;
        copy(m, to, st_.recorder.processor(to).phase[ph].migration);
        b.owner[m] = to;
      }
      b.lists[to].push_back(m);
    }
  }
  const ProfiledScheme scheme = scheme_of(*b.balancer);
  const int told = static_cast<int>(std::count(instructed.begin(), instructed.end(), 1));
  const double sync = synchronisation_cost(scheme, group.size, settings_.latency) +
                      instruction_cost(scheme, told, settings_.latency);
  for (int q = first; q < last; ++q) {
    st_.recorder.processor(q).phase[ph].balance += seconds + sync;
    charges_.decision += seconds;
    charges_.synchronisation += sync;
  }
}

// Between steps, on the step's measured costs: a recorded run's own busy times when its owners
// are these (the replay of its own strategy).
int SimMachine::measure_view(int s, int ph, std::vector<double>& busy) {
  const std::span<const int> recorded = costs_.recorded_owner(s, ph);
  const std::span<const double> measured = costs_.recorded_busy(s, ph);
  const std::vector<int>& owner = st_.phase[ph].owner;
  if (measured.size() == busy.size() &&
      std::equal(recorded.begin(), recorded.end(), owner.begin(), owner.end()))
    std::copy(measured.begin(), measured.end(), busy.begin());
  return s + settings_.replay_first_step;
}

// The decision timed, or modelled; every processor waits for a centralised decision or computes
// a redundant one itself.
std::optional<Decision> SimMachine::decide(int ph, Balancer& balancer, const LoadView& view) {
  // The thread CPU clock (a system call) only where the decision's own time is charged.
  const bool timed = settings_.measured_decisions;
  const double c0 = timed ? thread_cpu_now() : 0.0;
  Decision d = balancer.decide(view);
  const double seconds = settings_.decision_charge(timed ? thread_cpu_now() - c0 : 0.0);
  for (int p = 0; p < st_.P; ++p) st_.recorder.processor(p).phase[ph].end_balance = seconds;
  charges_.decision += seconds * st_.P;
  return d;
}

// A run across MPI ranks: after each phase every rank receives every other's outputs (and, for a
// finish_step reading states, every state), and the balancer's messages (rank 0's broadcast of a
// centralised decision, a distributed pattern's loads and notices) go at the exchange's rates;
// charged to the step's serial part, as the mpi executor records its exchange. The bytes are what
// the run recorded (exchange_bytes: the states shared for finish_step change size each step, which
// the workload's outputs alone would miss).
double SimMachine::rank_messages_seconds(int s) const {
  if (settings_.rank_threads <= 0) return 0;
  const int ranks = st_.P / settings_.rank_threads;
  const RankTraffic t = costs_.recorded_traffic(s);
  // The decision's messages are recorded summed over ranks: a centralised one's are rank 0's
  // sends, in turn; a distributed pattern's ranks send at once, so a step waits for one's share.
  const Balancer* last = st_.phase.back().balancer;
  const bool centralised = !last || last->scope() == DecisionScope::kLeader;
  const double share = centralised ? 1.0 : 1.0 / ranks;
  return settings_.rank_exchange_seconds(
             static_cast<double>((ranks - 1) * exchanges_per_step(st_.workload)),
             t.exchange_bytes) +
         settings_.rank_exchange_seconds(share * t.balance_messages, share * t.balance_bytes);
}

// The step's record from the model's state: bookkeeping, timed apart from the model (run --costs).
SimMachine::StepEnd SimMachine::end_step(int s) {
  build_start_ = thread_cpu_now();
  for (int p = 0; p < st_.P; ++p) {
    ProcessorTimes& t = st_.recorder.processor(p);
    double busy = 0;
    for (const PhaseTimes& phase : t.phase) busy += phase.busy;
    t.busy_wall = t.load.unloaded = busy;
    t.load.loaded = level_[p] * busy;
  }
  if (schedule_) return {};  // a loop schedule's step has no serial part
  const double ranks_messages = rank_messages_seconds(s);
  charges_.exchange += ranks_messages;
  return {ranks_messages + costs_.recorded_serial(s), 0.0};
}

void SimMachine::finish_record(StepRecord& rec) {
  rec.wall = rec.compute_wall = rec.makespan;  // modelled: no wall clock means anything here
  for (double x : {charges_.migration, charges_.synchronisation, charges_.decision,
                   charges_.contention, charges_.exchange})
    rec.metrics.push_back(x);
  if (chunks_ && chunks_->selected() >= 0) rec.metrics.push_back(chunks_->selected());
  clock_ += rec.makespan;
  build_ += thread_cpu_now() - build_start_;
}

}  // namespace

ExecutionResult run_simulated_steps(Workload& workload, const ExecutionPlan& plan, StepSink& sink,
                                    const SimSettings& settings, CostStream& costs,
                                    const ScheduleChoice* schedule) {
  if (schedule)
    if (std::string why = schedule_model_problem(schedule->kind); !why.empty())
      throw std::invalid_argument("simulate: " + why);
  ProtocolState state(workload, plan, {.models_seen = true, .moves = !schedule});
  SimMachine machine(state, settings, costs, schedule);
  return StepProtocol(state, machine, sink).run();
}

}  // namespace lbb
