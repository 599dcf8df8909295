#include "harness/exec/step_protocol.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "balancers/partition/block.h"
#include "core/assignment.h"
#include "harness/exec/conservation.h"

namespace lbb {

namespace {

// Flags one agent sets every step and every agent reads after a meeting: stored only when they
// change, so that their cache line stays shared instead of crossing to each core every step.
template <class T>
void set(T& flag, T value) {
  if (flag != value) flag = value;
}

// Spans a processor's buffer holds without growing: per step and phase twice its share of the
// modules and a few others (a wait, a decision, copies, the serial end), at most 1 Mi spans
// (32 MiB) a processor.
std::size_t timeline_reserve(int P, int M, int phases, int steps) {
  const std::size_t per_phase = 2 * static_cast<std::size_t>((M + P - 1) / P) + 6;
  return std::min<std::size_t>(per_phase * phases * steps, std::size_t{1} << 20);
}

}  // namespace

ProtocolState::ProtocolState(Workload& w, const ExecutionPlan& plan_, const MachineTraits& traits_)
    : workload(w),
      plan(plan_),
      P(plan_.processors),
      M(w.module_count()),
      phases(w.phases()),
      total(plan_.warmup + plan_.steps),
      traits(traits_),
      seen_is_cost(!traits_.models_seen && std::all_of(plan_.speed.begin(), plan_.speed.end(),
                                                       [](double v) { return v == 1.0; })),
      coords(w.module_coords()),
      communication(w.communication()),
      migratable(migratable_modules(w)),
      views(plan_.speed, plan_.topology, w.structure(), w.dimensions(), coords,
            communication ? &*communication : nullptr, migratable),
      phase(phases),
      recorder(plan_.speed, phases) {
  if (static_cast<int>(plan.speed.size()) != P) throw std::invalid_argument("speeds != P");
  if (!plan.later_phase_dynamic.empty() &&
      (!plan.dynamic || static_cast<int>(plan.later_phase_dynamic.size()) != phases - 1))
    throw std::invalid_argument("a workload of " + std::to_string(phases) + " phases needs 1 + " +
                                std::to_string(phases - 1) +
                                " dynamic balancers, or one for all phases");
  bytes.resize(M);
  for (int m = 0; m < M; ++m) bytes[m] = w.state_bytes(m);
  for (int ph = 0; ph < phases; ++ph) {
    PhasePlan& p = phase[ph];
    p.balancer = ph > 0 && !plan.later_phase_dynamic.empty() ? plan.later_phase_dynamic[ph - 1]
                                                             : plan.dynamic;
    p.cost.assign(M, 0.0);
    p.seen.assign(seen_is_cost ? 0 : M, 0.0);
    if (p.balancer) follow_balancer(ph);
    if (p.balancer && plan.load_model.kind != LoadModelKind::kLast)
      p.model.emplace(plan.load_model, M);
  }
  if (plan.timeline) timeline.enable(P, timeline_reserve(P, M, phases, total));
}

// Its modules not run yet, at their last step's costs; before any measurement, the seconds and
// predicted weight of those it ran, to scale the predicted weights into seconds.
void ProtocolState::report_rest(StopReport& r, int ph, int p, std::size_t i) const {
  const PhasePlan& b = phase[ph];
  const std::vector<int>& list = b.lists[p];
  r.ran_seconds = r.ran_weight = 0;
  r.unrun.assign(list.begin() + static_cast<std::ptrdiff_t>(i), list.end());
  r.unrun_cost.clear();
  if (b.measured) {
    const std::span<const double> last = seen(ph);
    for (int m : r.unrun) r.unrun_cost.push_back(last[m]);
    return;
  }
  for (std::size_t k = 0; k < i; ++k) {
    r.ran_seconds += b.cost[list[k]] * plan.speed[p];
    r.ran_weight += b.weights[list[k]];
  }
}

void StepMachine::agree(std::span<const int>, const std::string& failure) const {
  if (!failure.empty()) throw std::runtime_error(failure);
}

std::string decision_error(Balancer& balancer, const LoadView& view, Decision& d) {
  try {
    d = balancer.decide(view);
    return "";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    return what.empty() ? "the balancer failed" : what;
  }
}

bool StepMachine::decide_everywhere(int, int, Balancer&, const LoadView&,
                                    const std::function<void(Decision&)>&) {
  throw std::logic_error("this machine decides every phase once");
}

StepProtocol::StepProtocol(ProtocolState& state, StepMachine& machine, StepSink& sink)
    : st_(state), m_(machine), sink_(sink), busy_(state.P, 0.0) {
  partition();
}

// Each phase starts from the static partition of its predicted weights, or where the machine's
// costs say the recorded run started.
void StepProtocol::partition() {
  const double t0 = thread_cpu_now();
  for (int ph = 0; ph < st_.phases; ++ph) {
    PhasePlan& p = st_.phase[ph];
    p.weights = st_.phases == 1 ? st_.workload.predicted_weights()
                                : st_.workload.predicted_phase_weights(ph);
    Decision d;
    const std::string failure =
        st_.plan.initial ? decision_error(*st_.plan.initial,
                                          st_.views.view(-1, ViewLoads(p.weights, st_.bytes)), d)
                         : "";
    p.owner = d.act ? std::move(d.owner) : block_owners(st_.M, st_.P);
    if (const std::span<const int> start = m_.start_owner(ph); !start.empty())
      p.owner.assign(start.begin(), start.end());
    for (int m = 0; m < static_cast<int>(st_.migratable.size()); ++m)  // vt's home
      if (const int home = st_.workload.home(m, st_.P); !st_.migratable[m] && home >= 0)
        p.owner[m] = home;
    m_.agree(p.owner, failure);
    check_assignment(p.owner, st_.M, st_.P);
    p.lists = modules_by_processor(p.owner, st_.P);
  }
  if (st_.plan.record_modules) {
    for (const PhasePlan& p : st_.phase)
      start_.insert(start_.end(), p.owner.begin(), p.owner.end());
    start_bytes_ = st_.bytes;
  }
  result_.initial_partition_seconds = thread_cpu_now() - t0;
  st_.where = st_.phase[0].owner;
}

// Phase ph's synchronisation as its balancer declares it now: at set-up, and after each phase
// of an in-step balancer, which may change it at a decision (`dynamic: auto` takes its choice's).
void ProtocolState::follow_balancer(int ph) {
  PhasePlan& b = phase[ph];
  b.redundant = b.balancer->redundant();
  const SyncTrigger trigger = b.balancer->sync_trigger();
  b.in_step = traits.in_step && trigger.on_fastest_finish;
  if (!b.in_step) return;
  const int size = trigger.group_size > 0 ? std::min(trigger.group_size, P) : P;
  if (b.groups.empty() || b.group_size != size) b.groups = make_sync_groups(P, size);
  b.group_size = size;
  b.max_syncs = sync_limit(trigger);
}

ExecutionResult StepProtocol::run() {
  const double w0 = wall_now();
  st_.timeline.set_base(w0);  // a machine of several processes aligns it in run()
  m_.run([&](int a) {
    if (!m_.place(a)) return;
    for (int s = 0; s < st_.total; ++s)
      for (int ph = 0; ph < st_.phases; ++ph)
        if (!step_phase(a, s, ph)) return;
  });
  st_.timeline.resume_all(wall_now());
  // Each process's own; a machine of several gathers them all in end_run.
  if (st_.timeline.on()) result_.spans = st_.timeline.collect(st_.plan.warmup);
  m_.end_run(result_);
  result_.steps_run = st_.total;
  result_.work = st_.recorder.work();
  for (PhasePlan& p : st_.phase) result_.final_phase_owner.push_back(p.owner);
  result_.final_owner = st_.phase[0].owner;
  result_.run_wall = wall_now() - w0;
  return std::move(result_);
}

// Phase ph of step s on one agent: run, meet and decide, move. False: the run stopped.
bool StepProtocol::step_phase(int a, int s, int ph) {
  m_.run_phase(a, s, ph);
  if (!m_.meet(a, s, ph, [&] { end_phase(s, ph); })) return false;
  if (deferred_ && !m_.decide_everywhere(a, ph, *st_.phase[ph].balancer, view_, [&](Decision& d) {
        apply(ph, d);
        plan_moves(s, ph);
      }))
    return false;
  if (!move_now_) return true;
  return m_.move(a, ph, moved_, [&] {
    const int next = (ph + 1) % st_.phases;
    for (int m : moved_) st_.where[m] = st_.phase[next].owner[m];
    if (ph + 1 == st_.phases) close_step(s);
  });
}

// After phase ph of step s, once: the workload's end of step on the last phase, then the phase's
// decision between steps (every agent's, next, when the machine defers it).
void StepProtocol::end_phase(int s, int ph) {
  PhasePlan& b = st_.phase[ph];
  if (b.in_step) {
    for (auto& g : b.groups) g->reset();
    check_lists(b.lists, b.owner);  // the synchronisations rebuilt them
    st_.follow_balancer(ph);
  }
  set(b.measured, true);
  if (st_.plan.record_modules && st_.phases > 1) record_phase_modules(ph);
  if (ph + 1 == st_.phases) finish_step(s);
  set(deferred_, false);
  if (b.balancer && !b.in_step) decide_between_steps(s, ph);
  if (!deferred_) plan_moves(s, ph);  // else after every agent's decision (step_phase)
}

// Phase ph's decision after step s (warm-up included, from 0): its load model reads every step's
// costs; the balancer decides after every balance_every-th step, s + 1 = k, 2k, ..., on the
// model's prediction (the last step's costs without one).
void StepProtocol::decide_between_steps(int s, int ph) {
  PhasePlan& b = st_.phase[ph];
  const std::span<const double> seen = b.model ? b.model->observe(st_.seen(ph)) : st_.seen(ph);
  if ((s + 1) % st_.plan.balance_every != 0) return;
  for (int p = 0; p < st_.P; ++p) busy_[p] = st_.recorder.processor(p).phase[ph].busy;
  const int step = m_.measure_view(s, ph, busy_);
  view_ = st_.views.view(step, ViewLoads(seen, st_.bytes).owners(b.owner).busy_times(busy_));
  view_.phase = ph;
  std::optional<Decision> d = m_.decide(ph, *b.balancer, view_);
  if (!d) return set(deferred_, true);
  apply(ph, *d);
}

// Phase ph's module costs and the processors that ran them, before its decision changes them.
void StepProtocol::record_phase_modules(int ph) {
  const PhasePlan& p = st_.phase[ph];
  rec_.phase_module_cost.resize(static_cast<std::size_t>(st_.phases) * st_.M);
  rec_.phase_module_owner.resize(rec_.phase_module_cost.size());
  const auto at = static_cast<std::ptrdiff_t>(ph) * st_.M;
  std::copy(p.cost.begin(), p.cost.end(), rec_.phase_module_cost.begin() + at);
  std::copy(p.owner.begin(), p.owner.end(), rec_.phase_module_owner.begin() + at);
}

void StepProtocol::finish_step(int s) {
  rec_.metrics = m_.finish_step(s);
  rec_.step = s - st_.plan.warmup;  // negative during warm-up: not handed to the sink
  if (st_.plan.record_modules) {
    rec_.module_cost = st_.phase[0].cost;
    for (int ph = 1; ph < st_.phases; ++ph)
      for (int m = 0; m < st_.M; ++m) rec_.module_cost[m] += st_.phase[ph].cost[m];
    rec_.module_owner = st_.phase[0].owner;  // who ran each module (in the first phase)
    rec_.phase_module_start = start_;
    rec_.module_start_bytes = std::exchange(start_bytes_, st_.bytes);
    rec_.module_bytes = st_.bytes;
    rec_.transfers = st_.workload.step_transfers();
  }
}

void StepProtocol::apply(int ph, Decision& d) {
  add_predictions(rec_, d.predicted_before, d.predicted_after);
  if (!d.act) return;
  PhasePlan& p = st_.phase[ph];
  check_assignment(d.owner, st_.M, st_.P);
  if (!st_.migratable.empty())  // what may not move stays, whatever the balancer proposed
    for (int m = 0; m < st_.M; ++m)
      if (!st_.migratable[m]) d.owner[m] = p.owner[m];
  p.owner = std::move(d.owner);
  p.lists = modules_by_processor(p.owner, st_.P);
  changed_ = true;
}

// After phase ph's decision: what moves before the next phase (of this step or the next). The
// last phase's record closes here when nothing moves, else when the last move is made.
void StepProtocol::plan_moves(int s, int ph) {
  const int next = (ph + 1) % st_.phases;
  const std::vector<int>& owner = st_.phase[next].owner;
  if (!start_.empty())  // where phase `next` begins, before an in-step balancer moves any
    std::copy(owner.begin(), owner.end(),
              start_.begin() + static_cast<std::ptrdiff_t>(next) * st_.M);
  moved_.clear();
  if (st_.traits.moves && (st_.phases > 1 || changed_))
    for (int m = 0; m < st_.M; ++m)
      if (owner[m] != st_.where[m]) moved_.push_back(m);
  set(changed_, false);
  set(move_now_, !moved_.empty());
  if (ph + 1 == st_.phases && !move_now_) close_step(s);
}

// The step's record is complete: its last moves are made. Hands it on (not during warm-up).
void StepProtocol::close_step(int s) {
  const StepMachine::StepEnd end = m_.end_step(s);
  st_.recorder.close(rec_, end.serial, end.wall);
  m_.finish_record(rec_);
  result_.migrations += rec_.migrations;
  result_.bytes_moved += rec_.bytes_moved;
  record_clock_.set_exact(m_.exact_hand_over(rec_));
  if (rec_.step >= 0) record_step(sink_, rec_, result_.record_seconds, record_clock_);
  rec_.predicted_before = rec_.predicted_after = StepRecord{}.predicted_before;
}

}  // namespace lbb
