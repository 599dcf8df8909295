#pragma once
// The parallel region every executor runs its steps in: one OpenMP thread per processor (checked,
// not assumed), the first error any thread raises kept and rethrown after the region (an
// exception must never leave an OpenMP construct), BLAS held to one thread per processor, and
// the emulation's busy work calibrated before the first timed step.
#include <omp.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>

#include "harness/base/platform_emulation.h"
#include "harness/exec/group_barrier.h"
#include "harness/exec/wait_policy.h"
#include "kernels/blas_threads.h"

namespace lbb {

// Called inside a parallel region: empty when the team has `processors` threads, else why not.
inline std::optional<std::string> team_size_error(int processors) {
  const int got = omp_get_num_threads();
  if (got == processors) return std::nullopt;
  return "OpenMP gave " + std::to_string(got) + " threads, not " + std::to_string(processors) +
         " (check OMP_THREAD_LIMIT / OMP_DYNAMIC)";
}

class Team {
 public:
  // The team's own barrier spins before it sleeps only where every thread has a core and
  // OMP_WAIT_POLICY is not passive.
  Team(int processors, const PlatformEmulation& emulation)
      : processors_(processors),
        outnumbers_cores_(processors > omp_get_num_procs()),
        barrier_(std::max(processors, 1),
                 GroupBarrier::spin_for(wait_policy(), outnumbers_cores_)) {
    if (processors < 1) throw std::invalid_argument("a team needs at least one processor");
    kernels::use_one_blas_thread();  // the team is the parallelism: no BLAS threads under it
    if (emulation.active()) busy_work_rate();  // calibrate before the first timed step
  }

  int size() const { return processors_; }
  // Threads outnumber cores: a thread's own team takes its core, so its work is timed by the
  // thread CPU clock, never the wall clock (clock.h).
  bool outnumbers_cores() const { return outnumbers_cores_; }
  // Pauses its barrier spins before a waiting thread sleeps.
  int barrier_spin() const { return barrier_.spin(); }

  // Runs body(p) on thread p of a team of size() threads, then rethrows the first error kept.
  template <class Body>
  void run(Body&& body) {
#pragma omp parallel num_threads(processors_)
    {
#pragma omp single
      if (auto why = team_size_error(processors_)) {
        stopped_ = true;
        error_ = std::make_exception_ptr(std::runtime_error(*why));
      }
      if (!stopped_) body(omp_get_thread_num());
    }
    if (error_) std::rethrow_exception(error_);
  }

  // Any thread: keeps e unless an earlier error was kept. The team goes on (see stop()).
  void fail(std::exception_ptr e) noexcept {
#pragma omp critical(lbb_team_error)
    if (!error_) error_ = e;
  }

  // Any thread: runs f, keeping what it throws. Returns false when it threw.
  template <class F>
  bool guard(F&& f) noexcept {
    try {
      f();
      return true;
    } catch (...) {
      fail(std::current_exception());
      return false;
    }
  }

  // Every thread calls it: one runs f while the others wait at its end. A kept error, or one f
  // throws, stops the team: returns false on every thread, which must then leave the region.
  template <class F>
  bool single(F&& f) {
#pragma omp single
    guarded(f);
    return !stopped_;
  }

  // Every thread calls it: the barrier at the end of a stretch of parallel work, where the last
  // thread to arrive runs f before any leaves. One barrier where `omp barrier` and single(f)
  // take two; the same stopping rules as single().
  template <class F>
  bool serial_barrier(F&& f) {
    barrier_.arrive_and_wait([&]() noexcept { guarded(f); });
    return !stopped_;
  }

  // True once a single section stopped the team; read it after a barrier.
  bool stopped() const {
    return stopped_;
  }
  bool failed() const {
    return static_cast<bool>(error_);
  }
  // Inside a single section: stop the team without an error of its own.
  void stop() {
    stopped_ = true;
  }

 private:
  // Runs f on one thread unless the team has failed; an exception stops the team.
  template <class F>
  void guarded(F& f) noexcept {
    try {
      if (error_) throw std::runtime_error("a processor failed");
      f();
    } catch (...) {
      if (!error_) error_ = std::current_exception();
      stopped_ = true;
    }
  }

  int processors_;
  bool outnumbers_cores_;
  GroupBarrier barrier_;
  bool stopped_ = false;
  std::exception_ptr error_;
};

}  // namespace lbb
