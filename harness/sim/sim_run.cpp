#include "harness/sim/sim_run.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "balancers/in_step/zaki_cost_model.h"
#include "balancers/partition/block.h"
#include "core/assignment.h"
#include "harness/clock.h"
#include "harness/platform_emulation.h"

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
      recorder_(plan.speed, 1) {
  if (static_cast<int>(plan.speed.size()) != P_) throw std::invalid_argument("speeds != P");
  if (workload.phases() != 1)
    throw std::invalid_argument("the simulate executor runs one-phase workloads");
  if (costs.steps() >= 0 && costs.steps() < total_)
    throw std::invalid_argument("the cost source has " + std::to_string(costs.steps()) +
                                " steps; the run needs " + std::to_string(total_));
  bytes_.resize(M_);
  for (int m = 0; m < M_; ++m) bytes_[m] = workload.state_bytes(m);
  balancer_ = plan.dynamic;
  if (balancer_ && balancer_->sync_trigger().on_fastest_finish) {
    in_step_ = true;
    groups_ = make_sync_groups(P_, balancer_->sync_trigger().group_size);
    reports_.resize(P_);
  }
  level_.assign(P_, 0.0);
  stretch_.assign(P_, 1.0);
  rate_.assign(P_, 1.0);
  ran_.assign(M_, 0.0);
  seen_.assign(M_, 0.0);
  view_busy_.assign(P_, 0.0);
  partition();
}

void SimRun::partition() {
  weights_ = workload_.predicted_weights();
  const double t0 = thread_cpu_now();
  Decision d;
  if (plan_.initial) d = plan_.initial->decide(views_.view(-1, ViewLoads(weights_, bytes_)));
  owner_ = d.act ? std::move(d.owner) : block_owners(M_, P_);
  if (const std::span<const int> start = costs_.start_owner(); !start.empty())
    owner_.assign(start.begin(), start.end());
  result_.initial_partition_seconds = thread_cpu_now() - t0;
  if (auto err = assignment_error(owner_, M_, P_))
    throw std::logic_error("initial partition: " + *err);
  lists_ = modules_by_processor(owner_, P_);
}

ExecutionResult SimRun::run() {
  const double w0 = wall_now();
  for (int s = 0; s < total_; ++s) {
    start_step(s);
    if (in_step_)
      run_groups(s);
    else
      run_bulk();
    // What a real run measures: each module's cost on whoever ran it, at nominal speed.
    step_owner_ = owner_;
    for (int m = 0; m < M_; ++m) {
      const int p = owner_[m];
      seen_[m] = nominal_[m] * (1.0 + level_[p]) * stretch_[p];
    }
    measured_ = true;
    decide(s);
    close_step(s);
  }
  result_.steps_run = total_;
  result_.final_owner = owner_;
  result_.final_phase_owner = {owner_};
  result_.run_wall = wall_now() - w0;
  return std::move(result_);
}

void SimRun::start_step(int s) {
  const std::vector<double>& nominal = costs_.nominal(s);
  if (static_cast<int>(nominal.size()) != M_)
    throw std::logic_error("the cost source gave " + std::to_string(nominal.size()) +
                           " costs for " + std::to_string(M_) + " modules");
  nominal_ = nominal;
  // External load as real runs draw it (harness/platform_emulation.h), at the modelled time.
  const PlatformEmulation emulation(plan_.speed, plan_.external_load, 0.0);
  for (int p = 0; p < P_; ++p) {
    level_[p] = plan_.external_load.max > 0 ? emulation.load_at(p, clock_) : 0.0;
    rate_[p] = plan_.speed[p] / (1.0 + level_[p]);
  }
  std::fill(stretch_.begin(), stretch_.end(), 1.0);
  recorder_.clear();
  charges_ = {};
  rec_ = StepRecord{};
}

// Every processor runs its modules; contention stretches them by the processors busy meanwhile.
void SimRun::run_bulk() {
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
    PhaseTimes& t = recorder_.processor(p).phase[0];
    t.busy = t.finish = busy[p];
  }
}

void SimRun::run_groups(int s) {
  for (auto& group : groups_) run_group(s, *group);
}

double SimRun::decision_time(double measured) const {
  return settings_.measured_decisions ? measured : settings_.decision_seconds;
}

// Module m moves to processor `to`: its state is copied, charged to the receiver.
void SimRun::move(int m, int to, double& charge) {
  const double seconds = settings_.migration_seconds(1, static_cast<double>(bytes_[m]));
  charge += seconds;
  charges_.migration += seconds;
  ProcessorTimes& t = recorder_.processor(to);
  ++t.migrated;
  t.bytes += static_cast<std::int64_t>(bytes_[m]);
  owner_[m] = to;
}

}  // namespace lbb

namespace lbb {

// Zaki, Li & Parthasarathy 1997 on a group: its fastest processor finishes all its modules; the
// others stop after the module they are running then; the group decides on the rest, pays the
// scheme's synchronisation and instruction messages and the copies, and runs what it holds.
void SimRun::run_group(int s, SyncGroup& group) {
  const int first = group.first, last = group.first + group.size;
  double fastest = INFINITY;
  int trigger = first;
  for (int q = first; q < last; ++q) {
    double w = 0;
    for (int m : lists_[q]) w += on(m, q);
    if (w < fastest) fastest = w, trigger = q;
  }
  ++recorder_.processor(trigger).triggered;
  double arrival = 0;
  std::size_t unfinished = 0;
  for (int q = first; q < last; ++q) {
    StopReport& r = reports_[q];
    const std::vector<int>& list = lists_[q];
    std::size_t i = 0;
    r.busy = r.ran_seconds = r.ran_weight = 0;
    for (; i < list.size() && (q == trigger || r.busy < fastest); ++i) {
      r.busy += ran_[list[i]] = on(list[i], q);
      r.ran_seconds += ran_[list[i]] * plan_.speed[q];
      r.ran_weight += weights_[list[i]];
    }
    r.done = static_cast<int>(i);
    r.unrun.assign(list.begin() + static_cast<std::ptrdiff_t>(i), list.end());
    r.unrun_cost.clear();
    for (int m : r.unrun) r.unrun_cost.push_back(seen_[m]);
    arrival = std::max(arrival, r.busy);
    unfinished += r.unrun.size();
    PhaseTimes& t = recorder_.processor(q).phase[0];
    t.busy = r.busy;
    t.finish = arrival;
  }
  for (int q = first; q < last; ++q) recorder_.processor(q).phase[0].finish = arrival;
  if (unfinished == 0) return;
  GroupViewContext ctx;
  ctx.measured = measured_;
  ctx.predicted = weights_;
  ctx.views = &views_;
  ctx.step = s;
  ctx.bytes = bytes_;
  const GroupDecision d = decide_for_group(*balancer_, group, reports_, ctx);
  charge_group_decision(group, d, decision_time(d.cpu));
  for (int q = first; q < last; ++q) {
    PhaseTimes& t = recorder_.processor(q).phase[0];
    double rest = 0;
    for (std::size_t i = static_cast<std::size_t>(reports_[q].done); i < lists_[q].size(); ++i)
      rest += ran_[lists_[q][i]] = on(lists_[q][i], q);
    t.busy += rest;
    t.finish = arrival + t.balance + t.migration + rest;
  }
}

// The group's decision: every processor of the group waits for it (centralised) or computes it
// (distributed), and pays the scheme's synchronisation and instruction messages (Zaki et al.'s
// cost model); each receiver pays its copies. The lists keep what ran, then what each holds.
void SimRun::charge_group_decision(const SyncGroup& group, const GroupDecision& d, double seconds) {
  const int first = group.first, last = group.first + group.size;
  std::vector<char> instructed(P_, 0);
  for (int q = first; q < last; ++q) lists_[q].resize(static_cast<std::size_t>(reports_[q].done));
  for (std::size_t k = 0; k < d.modules.size(); ++k) {
    const int m = d.modules[k], to = d.decision.act ? d.decision.owner[k] : owner_[m];
    if (to != owner_[m]) {
      instructed[to] = instructed[owner_[m]] = 1;
      move(m, to, recorder_.processor(to).phase[0].migration);
    }
    lists_[to].push_back(m);
  }
  const ProfiledScheme scheme = scheme_of(*balancer_);
  const int told = static_cast<int>(std::count(instructed.begin(), instructed.end(), 1));
  const double sync = synchronisation_cost(scheme, group.size, settings_.latency) +
                      instruction_cost(scheme, told, settings_.latency);
  for (int q = first; q < last; ++q) {
    recorder_.processor(q).phase[0].balance = seconds + sync;
    charges_.decision += seconds;
    charges_.synchronisation += sync;
  }
}

// Between steps: the balancer decides on the step's measured costs (timed, or modelled); every
// processor waits for a centralised decision or computes a redundant one itself.
void SimRun::decide(int s) {
  if (!balancer_ || in_step_) return;
  for (int p = 0; p < P_; ++p) view_busy_[p] = recorder_.processor(p).phase[0].busy;
  // A recorded run's own busy times when its owners are these (the replay of its own strategy).
  const std::span<const int> recorded = costs_.recorded_owner(s);
  if (!recorded.empty() && std::equal(recorded.begin(), recorded.end(), owner_.begin())) {
    const std::span<const double> busy = costs_.recorded_busy(s);
    std::copy(busy.begin(), busy.end(), view_busy_.begin());
  }
  const LoadView view =
      views_.view(s, ViewLoads(seen_, bytes_).owners(owner_).busy_times(view_busy_));
  const double c0 = thread_cpu_now();
  Decision d = balancer_->decide(view);
  const double seconds = decision_time(thread_cpu_now() - c0);
  rec_.predicted_before = d.predicted_before;
  rec_.predicted_after = d.predicted_after;
  for (int p = 0; p < P_; ++p) recorder_.processor(p).phase[0].end_balance = seconds;
  charges_.decision += seconds * P_;
  if (!d.act) return;
  if (auto err = assignment_error(d.owner, M_, P_))
    throw std::logic_error("balancer returned an invalid assignment: " + *err);
  for (int m = 0; m < M_; ++m)
    if (d.owner[m] != owner_[m])
      move(m, d.owner[m], recorder_.processor(d.owner[m]).phase[0].end_migration);
  lists_ = modules_by_processor(owner_, P_);
}

void SimRun::close_step(int s) {
  for (int p = 0; p < P_; ++p) {
    ProcessorTimes& t = recorder_.processor(p);
    t.busy_wall = t.phase[0].busy;
    t.load.unloaded = t.phase[0].busy;
    t.load.loaded = level_[p] * t.phase[0].busy;
  }
  const double predicted_before = rec_.predicted_before, predicted_after = rec_.predicted_after;
  recorder_.close(rec_, 0.0, 0.0);
  rec_.predicted_before = predicted_before;
  rec_.predicted_after = predicted_after;
  rec_.wall = rec_.compute_wall = rec_.makespan;  // modelled: no wall clock means anything here
  rec_.step = s - plan_.warmup;
  // No kernel ran: the workload's own step metrics are unknown.
  rec_.metrics.assign(workload_.step_metrics().size(), std::nan(""));
  for (double x :
       {charges_.migration, charges_.synchronisation, charges_.decision, charges_.contention})
    rec_.metrics.push_back(x);
  if (plan_.record_modules) {
    rec_.module_cost = ran_;
    rec_.module_owner = step_owner_;
  }
  clock_ += rec_.makespan;
  result_.migrations += rec_.migrations;
  result_.bytes_moved += rec_.bytes_moved;
  if (rec_.step >= 0) sink_.on_step(rec_);
}

}  // namespace lbb
