#include "harness/sim/sim_run.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "balancers/in_step/zaki_cost_model.h"
#include "balancers/partition/block.h"
#include "core/assignment.h"
#include "harness/base/clock.h"
#include "harness/base/platform_emulation.h"
#include "harness/exec/conservation.h"
#include "harness/sim/network_fit.h"

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

}  // namespace

SimRun::SimRun(Workload& workload, const ExecutionPlan& plan, StepSink& sink,
               const SimSettings& settings, CostStream& costs)
    : workload_(workload),
      plan_(plan),
      sink_(sink),
      settings_(settings),
      costs_(costs),
      P_(plan.processors),
      M_(workload.module_count()),
      total_(plan.warmup + plan.steps),
      coords_(workload.module_coords()),
      views_(plan.speed, plan.topology, workload.structure(), workload.dimensions(), coords_),
      phases_(workload.phases()),
      recorder_(plan.speed, phases_) {
  if (static_cast<int>(plan.speed.size()) != P_) throw std::invalid_argument("speeds != P");
  if (costs.steps() >= 0 && costs.steps() < total_)
    throw std::invalid_argument("the cost source has " + std::to_string(costs.steps()) +
                                " steps; the run needs " + std::to_string(total_));
  if (!plan.later_phase_dynamic.empty() &&
      static_cast<int>(plan.later_phase_dynamic.size()) != phases_ - 1)
    throw std::invalid_argument("a workload of " + std::to_string(phases_) + " phases needs 1 + " +
                                std::to_string(phases_ - 1) + " dynamic balancers");
  bytes_.resize(M_);
  for (int m = 0; m < M_; ++m) bytes_[m] = workload.state_bytes(m);
  level_.assign(P_, 0.0);
  stretch_.assign(P_, 1.0);
  rate_.assign(P_, 1.0);
  ran_.assign(M_, 0.0);
  view_busy_.assign(P_, 0.0);
  parked_.resize(phases_);
  const double t0 = thread_cpu_now();
  for (int ph = phases_ - 1; ph >= 0; --ph) {  // ends with phase 0's state in the members
    if (ph + 1 < phases_) swap_phase(ph + 1);
    partition(ph);
  }
  result_.initial_partition_seconds = thread_cpu_now() - t0;
  where_ = owner_;
}

// Phase ph's balancer (each phase balanced on its own, Zaki, Li & Parthasarathy 1997) and its
// static partition of the phase's predicted weights, into the members.
void SimRun::partition(int ph) {
  balancer_ = ph > 0 && !plan_.later_phase_dynamic.empty() ? plan_.later_phase_dynamic[ph - 1]
                                                           : plan_.dynamic;
  if (balancer_ && balancer_->sync_trigger().on_fastest_finish) {
    in_step_ = true;
    groups_ = make_sync_groups(P_, balancer_->sync_trigger().group_size);
    max_syncs_ = sync_limit(balancer_->sync_trigger());
    reports_.resize(P_);
    place_.resize(P_);
  }
  weights_ = phases_ == 1 ? workload_.predicted_weights() : workload_.predicted_phase_weights(ph);
  seen_.assign(M_, 0.0);
  Decision d;
  if (plan_.initial) d = plan_.initial->decide(views_.view(-1, ViewLoads(weights_, bytes_)));
  owner_ = d.act ? std::move(d.owner) : block_owners(M_, P_);
  if (const std::span<const int> start = costs_.start_owner(ph); !start.empty())
    owner_.assign(start.begin(), start.end());
  if (auto err = assignment_error(owner_, M_, P_))
    throw std::logic_error("initial partition: " + *err);
  lists_ = modules_by_processor(owner_, P_);
}

// Exchanges the members' phase state with phase ph's parked one.
void SimRun::swap_phase(int ph) {
  PhaseState& o = parked_[ph];
  std::swap(balancer_, o.balancer);
  std::swap(in_step_, o.in_step);
  std::swap(groups_, o.groups);
  std::swap(max_syncs_, o.max_syncs);
  std::swap(owner_, o.owner);
  std::swap(lists_, o.lists);
  std::swap(weights_, o.weights);
  std::swap(seen_, o.seen);
  std::swap(measured_, o.measured);
}

ExecutionResult SimRun::run() {
  const double w0 = wall_now();
  for (int s = 0; s < total_; ++s) {
    start_step(s);
    for (int ph = 0; ph < phases_; ++ph) {
      if (ph != ph_) {
        swap_phase(ph_);
        swap_phase(ph_ = ph);
      }
      run_phase(s);
      decide(s);
      copy_for_next_phase();
    }
    close_step(s);
  }
  swap_phase(ph_);  // every phase's state parked
  result_.steps_run = total_;
  for (PhaseState& phase : parked_) result_.final_phase_owner.push_back(std::move(phase.owner));
  result_.final_owner = result_.final_phase_owner.front();
  result_.run_wall = wall_now() - w0;
  return std::move(result_);
}

void SimRun::start_step(int) {
  // External load as real runs draw it (harness/base/platform_emulation.h), at the modelled time.
  const PlatformEmulation emulation(plan_.speed, plan_.external_load, 0.0);
  for (int p = 0; p < P_; ++p) {
    level_[p] = emulation.load_at(p, clock_);
    rate_[p] = plan_.speed[p] / (1.0 + level_[p]);
  }
  recorder_.clear();
  charges_ = {};
  rec_ = StepRecord{};
  step_cost_.assign(M_, 0.0);
}

// The current phase of step s: its modules run (bulk, or in-step groups), then what a real run
// measures: each module's cost on whoever ran it, at nominal speed.
void SimRun::run_phase(int s) {
  const std::vector<double>& nominal = costs_.nominal(s, ph_);
  if (static_cast<int>(nominal.size()) != M_)
    throw std::logic_error("the cost source gave " + std::to_string(nominal.size()) +
                           " costs for " + std::to_string(M_) + " modules");
  nominal_ = nominal;
  std::fill(stretch_.begin(), stretch_.end(), 1.0);
  if (in_step_) {
    run_groups(s);
    check_lists(lists_, owner_);  // the synchronisations rebuilt them
  } else {
    run_bulk();
  }
  if (ph_ == 0) step_owner_ = owner_;
  for (int m = 0; m < M_; ++m) {
    const int p = owner_[m];
    seen_[m] = nominal_[m] * (1.0 + level_[p]) * stretch_[p];
    step_cost_[m] += ran_[m];
  }
  measured_ = true;
  if (plan_.record_modules && phases_ > 1) {  // as the bsp executor records them
    rec_.phase_module_cost.insert(rec_.phase_module_cost.end(), ran_.begin(), ran_.end());
    rec_.phase_module_owner.insert(rec_.phase_module_owner.end(), owner_.begin(), owner_.end());
  }
}

// Every processor runs its modules, after the step's exchange when charged; contention stretches
// them by the processors busy meanwhile.
void SimRun::run_bulk() {
  std::vector<double> exchange(P_, 0.0);
  if (settings_.exchange_all && ph_ == 0)
    exchange = exchange_seconds(owner_, bytes_, P_, settings_);
  std::vector<double> work(P_, 0.0);
  for (int p = 0; p < P_; ++p)
    for (int m : lists_[p]) work[p] += ran_[m] = on(m, p);
  std::vector<double> busy = work;
  if (settings_.contention > 0) busy = contended_finish(work, settings_);
  for (int p = 0; p < P_; ++p) {
    stretch_[p] = busy[p] != work[p] ? busy[p] / work[p] : 1.0;
    if (busy[p] != work[p])
      for (int m : lists_[p]) ran_[m] *= stretch_[p];
    charges_.contention += busy[p] - work[p];
    PhaseTimes& t = recorder_.processor(p).phase[ph_];
    t.busy = busy[p];
    t.finish = exchange[p] + busy[p];
    charges_.exchange += exchange[p];
  }
}

void SimRun::run_groups(int s) {
  for (auto& group : groups_) run_group(s, *group);
}

// Module m's state is copied to processor `to`, charged to the receiver: one message at the
// network's rates when it crosses ranks.
void SimRun::copy(int m, int to, double& charge) {
  const double bytes = static_cast<double>(bytes_[m]);
  const double seconds = settings_.across_ranks(where_[m], to)
                             ? settings_.network_seconds(1, bytes)
                             : settings_.migration_seconds(1, bytes);
  charge += seconds;
  charges_.migration += seconds;
  ProcessorTimes& t = recorder_.processor(to);
  ++t.migrated;
  t.bytes += static_cast<std::int64_t>(bytes_[m]);
  where_[m] = to;
}

// After a phase's decision: the states the next phase's owners (this phase's, next step, in a
// one-phase workload) do not hold are copied to them, charged to the receivers after the phase.
void SimRun::copy_for_next_phase() {
  const int next = (ph_ + 1) % phases_;
  const std::vector<int>& owner = next == ph_ ? owner_ : parked_[next].owner;
  for (int m = 0; m < M_; ++m)
    if (where_[m] != owner[m])
      copy(m, owner[m], recorder_.processor(owner[m]).phase[ph_].end_migration);
}

}  // namespace lbb

namespace lbb {

// Zaki, Li & Parthasarathy 1997 on a group, in the rounds the bsp executor holds
// (hold_sync_rounds): each round runs until the group's fastest has run all its modules; the
// group then decides on the rest, pays the scheme's synchronisation and instruction messages and
// the copies, and goes on, until a decision moves nothing or max_syncs synchronisations were held.
void SimRun::run_group(int s, SyncGroup& group) {
  const int first = group.first, last = group.first + group.size;
  for (int q = first; q < last; ++q) place_[q] = InStepPlace{};
  hold_sync_rounds(
      max_syncs_, [&](int, bool stops) { run_round(group, stops); },
      [&](int) { return synchronise(s, group); });
  for (int q = first; q < last; ++q) {
    PhaseTimes& t = recorder_.processor(q).phase[ph_];
    t.busy = place_[q].busy;
    t.finish = place_[q].clock;
  }
}

// Each processor of the group runs on from where it stopped: with `stops`, until the group's
// fastest has run all its modules (it triggers) and every other has finished the module it was
// running then, on the modelled clocks; else to the end of its list.
void SimRun::run_round(const SyncGroup& group, bool stops) {
  const int first = group.first, last = group.first + group.size;
  double fastest = INFINITY;
  int trigger = first;
  for (int q = first; stops && q < last; ++q) {
    double end = place_[q].clock;
    for (std::size_t i = place_[q].at; i < lists_[q].size(); ++i) end += on(lists_[q][i], q);
    if (end < fastest) fastest = end, trigger = q;
  }
  if (stops) ++recorder_.processor(trigger).triggered;
  for (int q = first; q < last; ++q) {
    InStepPlace& at = place_[q];
    const std::vector<int>& list = lists_[q];
    while (at.at < list.size() && (!stops || q == trigger || at.clock < fastest)) {
      const int m = list[at.at++];
      ran_[m] = on(m, q);
      at.clock += ran_[m];
      at.busy += ran_[m];
    }
  }
}

// The group waits for its last processor, decides on its unfinished modules from what each
// reports since the last synchronisation, and pays for it. True: another round follows.
bool SimRun::synchronise(int s, const SyncGroup& group) {
  const int first = group.first, last = group.first + group.size;
  double arrival = 0;
  std::size_t unfinished = 0;
  for (int q = first; q < last; ++q) {
    const InStepPlace& at = place_[q];
    const std::vector<int>& list = lists_[q];
    StopReport& r = reports_[q];
    r.busy = at.busy - at.busy_since;
    r.done = static_cast<int>(at.at - at.since);
    r.clock = at.clock;
    r.ran_seconds = r.ran_weight = 0;
    if (!measured_)
      for (std::size_t i = 0; i < at.at; ++i) {
        r.ran_seconds += ran_[list[i]] * plan_.speed[q];
        r.ran_weight += weights_[list[i]];
      }
    r.unrun.assign(list.begin() + static_cast<std::ptrdiff_t>(at.at), list.end());
    r.unrun_cost.clear();
    for (int m : r.unrun) r.unrun_cost.push_back(seen_[m]);
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
  ctx.measured = measured_;
  ctx.predicted = weights_;
  ctx.views = &views_;
  ctx.step = s;
  ctx.bytes = bytes_;
  const GroupDecision d = decide_for_group(*balancer_, group, reports_, ctx);
  std::vector<double> paid(group.size);
  for (int q = first; q < last; ++q) {
    const PhaseTimes& t = recorder_.processor(q).phase[ph_];
    paid[q - first] = t.balance + t.migration;
  }
  charge_group_decision(group, d, settings_.decision_charge(d.cpu));
  for (int q = first; q < last; ++q) {
    const PhaseTimes& t = recorder_.processor(q).phase[ph_];
    place_[q].clock += t.balance + t.migration - paid[q - first];
  }
  return d.decision.act;
}

// The group's decision: every processor of the group waits for it (centralised) or computes it
// (distributed), and pays the scheme's synchronisation and instruction messages (Zaki et al.'s
// cost model); each receiver pays its copies. An acting decision leaves each list what its
// processor ran, then what it gained (as the bsp executor's lists).
void SimRun::charge_group_decision(const SyncGroup& group, const GroupDecision& d, double seconds) {
  const int first = group.first, last = group.first + group.size;
  std::vector<char> instructed(P_, 0);
  if (d.decision.act) {
    for (int q = first; q < last; ++q) lists_[q].resize(place_[q].at);
    for (std::size_t k = 0; k < d.modules.size(); ++k) {
      const int m = d.modules[k], to = d.decision.owner[k];
      if (to != owner_[m]) {
        instructed[to] = instructed[owner_[m]] = 1;
        copy(m, to, recorder_.processor(to).phase[ph_].migration);
        owner_[m] = to;
      }
      lists_[to].push_back(m);
    }
  }
  const ProfiledScheme scheme = scheme_of(*balancer_);
  const int told = static_cast<int>(std::count(instructed.begin(), instructed.end(), 1));
  const double sync = synchronisation_cost(scheme, group.size, settings_.latency) +
                      instruction_cost(scheme, told, settings_.latency);
  for (int q = first; q < last; ++q) {
    recorder_.processor(q).phase[ph_].balance += seconds + sync;
    charges_.decision += seconds;
    charges_.synchronisation += sync;
  }
}

// Between steps: the balancer decides on the step's measured costs (timed, or modelled); every
// processor waits for a centralised decision or computes a redundant one itself.
void SimRun::decide(int s) {
  if (!balancer_ || in_step_) return;
  for (int p = 0; p < P_; ++p) view_busy_[p] = recorder_.processor(p).phase[ph_].busy;
  // A recorded run's own busy times when its owners are these (the replay of its own strategy).
  const std::span<const int> recorded = costs_.recorded_owner(s, ph_);
  const std::span<const double> busy = costs_.recorded_busy(s, ph_);
  if (busy.size() == view_busy_.size() &&
      std::equal(recorded.begin(), recorded.end(), owner_.begin(), owner_.end())) {
    std::copy(busy.begin(), busy.end(), view_busy_.begin());
  }
  const LoadView view = views_.view(s + settings_.replay_first_step,
                                    ViewLoads(seen_, bytes_).owners(owner_).busy_times(view_busy_));
  // The thread CPU clock (a system call) only where the decision's own time is charged.
  const bool timed = settings_.measured_decisions;
  const double c0 = timed ? thread_cpu_now() : 0.0;
  Decision d = balancer_->decide(view);
  const double seconds = settings_.decision_charge(timed ? thread_cpu_now() - c0 : 0.0);
  add_predictions(rec_, d.predicted_before, d.predicted_after);
  for (int p = 0; p < P_; ++p) recorder_.processor(p).phase[ph_].end_balance = seconds;
  charges_.decision += seconds * P_;
  if (!d.act) return;
  check_assignment(d.owner, M_, P_);
  owner_ = std::move(d.owner);
  lists_ = modules_by_processor(owner_, P_);
}

// A run across MPI ranks: after each phase every rank receives every other's outputs (and, for a
// finish_step reading states, every state), and the balancer's messages (rank 0's broadcast of a
// centralised decision, a distributed pattern's loads and notices) go at the exchange's rates;
// charged to the step's serial part, as the mpi executor records its exchange. The bytes are what
// the run recorded (exchange_bytes: the states shared for finish_step change size each step, which
// the workload's outputs alone would miss).
double SimRun::rank_messages_seconds(int s) const {
  if (settings_.rank_threads <= 0) return 0;
  const int ranks = P_ / settings_.rank_threads;
  const RankTraffic t = costs_.recorded_traffic(s);
  // The decision's messages are recorded summed over ranks: a centralised one's are rank 0's
  // sends, in turn; a distributed pattern's ranks send at once, so a step waits for one's share.
  const bool centralised = !balancer_ || balancer_->scope() == DecisionScope::kLeader;
  const double share = centralised ? 1.0 : 1.0 / ranks;
  return settings_.rank_exchange_seconds(
             static_cast<double>((ranks - 1) * exchanges_per_step(workload_)), t.exchange_bytes) +
         settings_.rank_exchange_seconds(share * t.balance_messages, share * t.balance_bytes);
}

// The step's record from the model's state: bookkeeping, timed apart from the model (run --costs).
void SimRun::close_step(int s) {
  const double c0 = thread_cpu_now();
  for (int p = 0; p < P_; ++p) {
    ProcessorTimes& t = recorder_.processor(p);
    double busy = 0;
    for (const PhaseTimes& phase : t.phase) busy += phase.busy;
    t.busy_wall = t.load.unloaded = busy;
    t.load.loaded = level_[p] * busy;
  }
  const double predicted_before = rec_.predicted_before, predicted_after = rec_.predicted_after;
  const double ranks_messages = rank_messages_seconds(s);
  charges_.exchange += ranks_messages;
  recorder_.close(rec_, ranks_messages + costs_.recorded_serial(s), 0.0);
  rec_.predicted_before = predicted_before;
  rec_.predicted_after = predicted_after;
  rec_.wall = rec_.compute_wall = rec_.makespan;  // modelled: no wall clock means anything here
  rec_.step = s - plan_.warmup;
  // No kernel ran: the workload's own step metrics are unknown.
  rec_.metrics.assign(workload_.step_metrics().size(), std::nan(""));
  for (double x : {charges_.migration, charges_.synchronisation, charges_.decision,
                   charges_.contention, charges_.exchange})
    rec_.metrics.push_back(x);
  if (plan_.record_modules) {
    rec_.module_cost = step_cost_;
    rec_.module_owner = step_owner_;
  }
  clock_ += rec_.makespan;
  result_.migrations += rec_.migrations;
  result_.bytes_moved += rec_.bytes_moved;
  result_.record_build_seconds += thread_cpu_now() - c0;
  if (rec_.step >= 0) record_step(sink_, rec_, result_.record_seconds);
}

}  // namespace lbb
