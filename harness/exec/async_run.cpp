#include "harness/exec/async_run.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "harness/clock.h"

namespace lbb {

AsyncRun::AsyncRun(Workload& workload, ModuleStore& store, const ModuleGraph& graph, int processors,
                   std::vector<int> owner, int steps, Predictive* predictive,
                   const PlatformEmulation& emulation)
    : workload_(workload),
      store_(store),
      graph_(graph),
      predictive_(predictive),
      emulation_(emulation),
      n_(graph.modules()),
      steps_(steps),
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
      load_(processors) {}

void AsyncRun::processor(int p) noexcept {
  try {
    Lock lock(mutex_);
    while (!done()) {
      take_if_short(p, lock);
      const int m = ready_module(p);
      if (m < 0) {
        wait_for_change(p, lock);
        continue;
      }
      const double start = start_module(m, p);
      const int s = step_[m];
      lock.unlock();
      const double c0 = thread_cpu_now();
      run_emulated_until_end(emulation_, p, load_[p],
                             [&] { workload_.run_module(m, s, 0, store_.state(m)); });
      const double cpu = thread_cpu_now() - c0;
      lock.lock();
      finish_module(m, p, start, cpu);
      advance_epoch();
    }
  } catch (...) {
    fail(std::current_exception());
  }
}

// Of p's modules whose linked modules have all finished its current step, the lowest step
// (then the lowest id): the processor keeps its modules' wavefront together.
int AsyncRun::ready_module(int p) const {
  int best = -1;
  for (int m = 0; m < n_; ++m) {
    if (owner_[m] != p || busy_[m] || step_[m] >= steps_) continue;
    if (best >= 0 && step_[m] >= step_[best]) continue;
    bool inputs = true;
    for (int j : graph_.neighbours(m)) inputs &= step_[j] >= step_[m];
    if (inputs) best = m;
  }
  return best;
}

// Marks m running its next step on p and returns the step's modelled start: after p's clock, m's
// previous step and the previous step of every module it depends on.
double AsyncRun::start_module(int m, int p) {
  const int s = step_[m];
  if (++runs_[index(m, s)] != 1)
    throw std::logic_error("module " + std::to_string(m) + " runs step " + std::to_string(s) +
                           " a second time");
  double start = clock_[p];
  if (s > 0) start = std::max(start, module_end_[2 * m + ((s - 1) & 1)]);
  for (int j : graph_.neighbours(m)) {
    if (step_[j] < s)
      throw std::logic_error("module " + std::to_string(m) + " starts step " + std::to_string(s) +
                             " before module " + std::to_string(j) + " finished step " +
                             std::to_string(s - 1));
    if (s > 0) start = std::max(start, module_end_[2 * j + ((s - 1) & 1)]);
  }
  busy_[m] = 1;
  return start;
}

void AsyncRun::finish_module(int m, int p, double start, double cpu) {
  const int s = step_[m];
  const double end = start + cpu;
  clock_[p] = end;
  module_end_[2 * m + (s & 1)] = end;
  step_end_[s] = std::max(step_end_[s], end);
  cost_[index(m, s)] = cpu;
  spans_[p].push_back({ClockSpan::kModule, start, end});
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
  const double c0 = thread_cpu_now();
  workload_.finish_step(s, store_);
  c.serial = thread_cpu_now() - c0;
  c.wall = wall_now();
  c.owner = owner_;
  c.metrics = workload_.step_metric_values(s);
  closed_.push_back(std::move(c));
}

// The take rule (Iqbal, Saltz & Bokhari 1986, section 6), then the copy of the module's state
// by its new owner; the module may neither run nor move again until the copy is done.
void AsyncRun::take_if_short(int p, Lock& lock) {
  if (!predictive_) return;
  const double c0 = thread_cpu_now();
  const auto take = predictive_->consider(p, [&](int m) { return !busy_[m]; });
  if (!take) return;
  predictive_->apply(*take);
  owner_[take->module] = p;
  busy_[take->module] = 1;
  const double decided = thread_cpu_now();
  spans_[p].push_back({ClockSpan::kBalance, clock_[p], clock_[p] + (decided - c0)});
  clock_[p] += decided - c0;
  lock.unlock();
  const std::uint64_t bytes = store_.migrate(take->module);
  const double copy = thread_cpu_now() - decided;
  lock.lock();
  busy_[take->module] = 0;
  takes_.push_back({clock_[p], bytes});
  spans_[p].push_back({ClockSpan::kMigration, clock_[p], clock_[p] + copy});
  clock_[p] += copy;
  advance_epoch();
}

void AsyncRun::wait_for_change(int p, Lock& lock) {
  const std::uint64_t seen = epoch_.load(std::memory_order_acquire);
  lock.unlock();
  const double t0 = wall_now();
  epoch_.wait(seen, std::memory_order_acquire);
  idle_wall_[p] += wall_now() - t0;
  lock.lock();
}

void AsyncRun::advance_epoch() {
  epoch_.fetch_add(1, std::memory_order_release);
  epoch_.notify_all();
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
