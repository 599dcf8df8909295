#include "harness/exec/async_run.h"

#include <omp.h>
#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#include "harness/base/clock.h"
#include "harness/exec/group_barrier.h"

namespace lbb {

double KernelWork::run_module(int m, int s, int p, double) {
  const double c0 = thread_cpu_now();
  run_emulated_until_end(emulation_, p, load_[p],
                         [&] { workload_.run_module(m, s, 0, store_.state(m)); });
  return thread_cpu_now() - c0;
}

MigrationCharge KernelWork::migrate(int m) {
  const double c0 = thread_cpu_now();
  MigrationCharge charge;
  charge.bytes = store_.migrate(m);
  charge.seconds = thread_cpu_now() - c0;
  return charge;
}

void KernelWork::close_step(int s, double, ClosedStep& c) {
  const double c0 = thread_cpu_now();
  workload_.finish_step(s, store_);
  c.serial = thread_cpu_now() - c0;
  c.wall = wall_now();
  c.metrics = workload_.step_metric_values(s);
}

AsyncRun::AsyncRun(AsyncWork& work, const ModuleGraph& graph, int processors,
                   std::vector<int> owner, int steps, Predictive* predictive, AsyncOrder order)
    : work_(work),
      graph_(graph),
      predictive_(predictive),
      n_(graph.modules()),
      steps_(steps),
      spin_(GroupBarrier::spin_for(wait_policy(), processors > omp_get_num_procs())),
      owner_(std::move(owner)),
      step_(n_, 0),
      busy_(n_, 0),
      runs_(static_cast<std::size_t>(n_) * steps, 0),
      finished_(steps, 0),
      module_end_(2 * static_cast<std::size_t>(n_), 0.0),
      step_end_(steps, 0.0),
      cost_(static_cast<std::size_t>(n_) * steps, 0.0),
      clock_(processors, 0.0),
      spans_(processors),
      idle_wall_(processors, 0.0),
      order_(order),
      finishing_(processors, 0) {
  if (owner_.size() != static_cast<std::size_t>(n_))
    throw std::logic_error("async executor: an owner for each of the graph's modules expected");
  owned_.resize(processors);
  for (int m = 0; m < n_; ++m) {
    if (owner_[m] < 0 || owner_[m] >= processors)
      throw std::logic_error("module " + std::to_string(m) + " has no processor");
    owned_[owner_[m]].push_back(m);
  }
}

void AsyncRun::processor(int p) noexcept {
  try {
    if (order_ == AsyncOrder::kArrival)
      arrival_loop(p);
    else
      modelled_loop(p);
  } catch (...) {
    fail(std::current_exception());
  }
}

void AsyncRun::arrival_loop(int p) {
  Lock lock(mutex_);
  while (!done()) {
    take_if_short(p, lock);
    const int m = ready_module(p);
    if (m < 0) {
      // A take asked of another process released the lock: the run may have ended meanwhile.
      if (!done()) wait_for_change(p, lock);
      continue;
    }
    const double start = start_module(m, p);
    const double cpu = run_module(m, p, start, lock);
    record_run(m, p, start, cpu);
    if (peers_) peers_->finished(m, step_[m], p, start + cpu, cpu);
    make_visible(m);
    advance_epoch();
  }
}

// One thread runs the whole modelled order: one action at a time, whichever processor's it is
// (a hand-over to the owner's thread costs a context switch per module, and on a host with
// fewer free cores than processors, where this order is for, the wait for that thread's turn
// dominated the run: 4 to 60 s a run of iqbal1986 at load 16-33). The others end at once.
void AsyncRun::modelled_loop(int p) {
  if (p != 0) return;
  Lock lock(mutex_);
  while (!done()) {
    schedule();
    if (done()) break;
    const int q = turn_;
    turn_ = -1;
    act(q, lock);
  }
}

// The action of the free processor with the earliest one, unless a pending step ends no later:
// that becomes visible first (idle processors' clocks move up to its end).
void AsyncRun::schedule() {
  while (!done()) {
    int who = -1;
    double when = std::numeric_limits<double>::infinity();
    for (int q = 0; q < static_cast<int>(clock_.size()); ++q)
      if (!finishing_[q])
        if (const double t = next_action(q); t < when) {
          when = t;
          who = q;
        }
    if (!pending_.empty() && pending_.front().end <= when) {
      std::pop_heap(pending_.begin(), pending_.end(), std::greater<>());
      const Pending done_step = pending_.back();
      pending_.pop_back();
      finishing_[done_step.processor] = 0;
      for (int q = 0; q < static_cast<int>(clock_.size()); ++q)
        if (!finishing_[q]) clock_[q] = std::max(clock_[q], done_step.end);
      make_visible(done_step.module);
      continue;
    }
    if (who < 0) throw std::logic_error("async executor: no processor can act and none is busy");
    turn_ = who;
    return;
  }
}

// When p would act next: take a module now, or start its first ready module.
double AsyncRun::next_action(int p) const {
  if (predictive_ && predictive_->consider(p, [&](int m) { return !busy_[m]; })) return clock_[p];
  const int m = ready_module(p);
  return m < 0 ? std::numeric_limits<double>::infinity() : earliest_start(m, p);
}

void AsyncRun::act(int p, Lock& lock) {
  const std::size_t takes = takes_.size();
  take_if_short(p, lock);
  if (takes_.size() != takes) return;
  const int m = ready_module(p);
  if (m < 0) throw std::logic_error("async executor: processor given a turn has nothing to do");
  const double start = start_module(m, p);
  const double cpu = run_module(m, p, start, lock);
  record_run(m, p, start, cpu);
  finishing_[p] = 1;
  pending_.push_back({start + cpu, m, p});
  std::push_heap(pending_.begin(), pending_.end(), std::greater<>());
}

double AsyncRun::run_module(int m, int p, double start, Lock& lock) {
  const int s = step_[m];
  lock.unlock();
  const double seconds = work_.run_module(m, s, p, start);
  lock.lock();
  return seconds;
}

// Of p's modules whose linked modules have all finished its current step, the lowest step
// (then the lowest id): the processor keeps its modules' wavefront together.
int AsyncRun::ready_module(int p) const {
  int best = -1;
  for (int m : owned_[p]) {  // ascending: the first of the lowest step wins
    if (busy_[m] || step_[m] >= steps_) continue;
    if (best >= 0 && step_[m] >= step_[best]) continue;
    bool inputs = true;
    for (int j : graph_.neighbours(m)) inputs &= step_[j] >= step_[m];
    if (inputs) best = m;
  }
  return best;
}

// The modelled start of m's next step on p: after p's clock, m's previous step and the previous
// step of every module it depends on.
double AsyncRun::earliest_start(int m, int p) const {
  const int s = step_[m];
  double start = clock_[p];
  if (s == 0) return start;
  start = std::max(start, module_end_[2 * m + ((s - 1) & 1)]);
  for (int j : graph_.neighbours(m)) start = std::max(start, module_end_[2 * j + ((s - 1) & 1)]);
  return start;
}

// Marks m running its next step (checked: once, after its dependencies) and returns its start.
double AsyncRun::start_module(int m, int p) {
  const int s = step_[m];
  if (++runs_[index(m, s)] != 1)
    throw std::logic_error("module " + std::to_string(m) + " runs step " + std::to_string(s) +
                           " a second time");
  for (int j : graph_.neighbours(m))
    if (step_[j] < s)
      throw std::logic_error("module " + std::to_string(m) + " starts step " + std::to_string(s) +
                             " before module " + std::to_string(j) + " finished step " +
                             std::to_string(s - 1));
  busy_[m] = 1;
  return earliest_start(m, p);
}

void AsyncRun::record_run(int m, int p, double start, double cpu) {
  const int s = step_[m];
  const double end = start + cpu;
  clock_[p] = end;
  module_end_[2 * m + (s & 1)] = end;
  step_end_[s] = std::max(step_end_[s], end);
  cost_[index(m, s)] = cpu;
  spans_[p].push_back({ClockSpan::kModule, start, end});
}

// m's step is finished for everyone: its step count, the predictive balancer's DEPEND graphs,
// and the close of the step once every module has run it.
void AsyncRun::make_visible(int m) {
  const int s = step_[m];
  step_[m] = s + 1;
  busy_[m] = 0;
  ++completed_;
  if (predictive_) predictive_->module_advanced(m);  // throws if m outran its data
  if (++finished_[s] == n_)
    while (next_close_ < steps_ && finished_[next_close_] == n_) close_step(next_close_++);
}

// Every module has run step s: each exactly once (checked), then the workload's end of step.
void AsyncRun::close_step(int s) {
  for (int m = 0; m < n_; ++m)
    if (runs_[index(m, s)] != 1)
      throw std::logic_error("module " + std::to_string(m) + " ran step " + std::to_string(s) +
                             " " + std::to_string(runs_[index(m, s)]) + " times");
  ClosedStep c;
  c.owner = owner_;
  work_.close_step(s, step_end_[s], c);
  closed_.push_back(std::move(c));
}

// The take rule (Iqbal, Saltz & Bokhari 1986, section 6), then the copy of the module's state
// by its new owner; the module may neither run nor move again until the copy is done.
void AsyncRun::take_if_short(int p, Lock& lock) {
  if (!predictive_) return;
  const bool timed = work_.times_decisions();
  const double c0 = timed ? thread_cpu_now() : 0.0;
  const auto take = predictive_->consider(p, [&](int m) { return !busy_[m]; });
  if (!take) return;
  const bool elsewhere = peers_ && !peers_->here(take->from);
  if (!elsewhere) {
    predictive_->apply(*take);
    transfer(take->module, p);
    busy_[take->module] = 1;
  }
  const double decision = work_.decision_seconds(timed ? thread_cpu_now() - c0 : 0.0);
  spans_[p].push_back({ClockSpan::kBalance, clock_[p], clock_[p] + decision});
  clock_[p] += decision;
  if (elsewhere) {
    take_elsewhere(*take, p, lock);
    return;
  }
  if (peers_) peers_->took(*take, step_[take->module], clock_[p]);
  lock.unlock();
  const MigrationCharge copy = work_.migrate(take->module);
  lock.lock();
  busy_[take->module] = 0;
  takes_.push_back({clock_[p], copy.bytes});
  spans_[p].push_back({ClockSpan::kMigration, clock_[p], clock_[p] + copy.seconds});
  clock_[p] += copy.seconds;
  advance_epoch();
}

// A take from a processor of another process: that process grants it (the module's state sent,
// the take applied by move_module) or refuses it; the taker's clock is charged as for a copy.
void AsyncRun::take_elsewhere(const ModuleTake& take, int p, Lock& lock) {
  const std::optional<MigrationCharge> copy = peers_->take_elsewhere(take, clock_[p], lock);
  if (!copy) return;
  takes_.push_back({clock_[p], copy->bytes});
  spans_[p].push_back({ClockSpan::kMigration, clock_[p], clock_[p] + copy->seconds});
  clock_[p] += copy->seconds;
  advance_epoch();
}

void AsyncRun::ran_elsewhere(int m, int s, double end, double cpu) {
  if (step_[m] != s || ++runs_[index(m, s)] != 1)
    throw std::logic_error("module " + std::to_string(m) + " ran step " + std::to_string(s) +
                           " elsewhere out of order");
  module_end_[2 * m + (s & 1)] = end;
  step_end_[s] = std::max(step_end_[s], end);
  cost_[index(m, s)] = cpu;
  make_visible(m);
  advance_epoch();
}

void AsyncRun::move_module(const ModuleTake& take) {
  if (!predictive_) throw std::logic_error("a module moved without the predictive balancer");
  predictive_->apply(take);  // throws if the take does not match the ownership
  transfer(take.module, take.to);
  advance_epoch();
}

void AsyncRun::adopt_processor(int p, std::vector<ClockSpan> spans, double idle_wall) {
  spans_[p] = std::move(spans);
  idle_wall_[p] = idle_wall;
}

void AsyncRun::add_takes(std::span<const ModuleTakeRecord> takes) {
  takes_.insert(takes_.end(), takes.begin(), takes.end());
}

// m's owner becomes p, in both processors' ascending lists.
void AsyncRun::transfer(int m, int p) {
  std::vector<int>& from = owned_[owner_[m]];
  from.erase(std::lower_bound(from.begin(), from.end(), m));
  std::vector<int>& to = owned_[p];
  to.insert(std::lower_bound(to.begin(), to.end(), m), m);
  owner_[m] = p;
}

void AsyncRun::wait_for_change(int p, Lock& lock) {
  const unsigned seen = epoch_.load();
  lock.unlock();
  const double t0 = wall_now();
  epoch_.wait_while(seen, spin_);
  idle_wall_[p] += wall_now() - t0;
  lock.lock();
}

void AsyncRun::advance_epoch() {
  epoch_.bump_and_wake();
}

void AsyncRun::fail(std::exception_ptr e) {
  {
    std::lock_guard<std::mutex> guard(mutex_);
    if (!error_) error_ = e;
    failed_ = true;
  }
  advance_epoch();
}

void AsyncRun::rethrow_if_failed() const {
  if (error_) std::rethrow_exception(error_);
}

}  // namespace lbb
