#pragma once
// The two clocks (docs/ARCHITECTURE.md, "The two clocks"): a cheap monotonic wall clock (vDSO,
// 25-80 ns) per module, and the thread CPU clock (a system call: 0.2 us on bare metal, 0.6-2 us
// on a virtual machine) around stretches of one thread's work that preemption may stretch.
#include <time.h>

#include <cstdint>

namespace lbb {

inline double seconds_of(const timespec& ts) {
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

inline double wall_now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return seconds_of(ts);
}

inline double thread_cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return seconds_of(ts);
}

// Every thread of the process: what an invocation's parts cost (harness/run/run_costs.h).
inline double process_cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return seconds_of(ts);
}

// The CPU seconds of successive stretches of one kind of work on one thread (a processor's
// phase, the serial end of step), reading the thread CPU clock only where it can differ from the
// wall clock. A stretch under kShortStretch of wall time leaves no room for another process's
// thread to take the core (its time slice is 0.75 ms or more; at most a kernel thread's brief
// turn fits), so its wall time is its CPU time to within that turn. The clock is read around a
// stretch only when the last one of its kind was not short: steady stretches of empty or tiny
// modules cost two wall clock reads, long ones two CPU clock reads besides, which their length
// dwarfs. A stretch that ran long after a short one is counted by its wall time, an upper bound of
// its CPU time (`walled` says how often). That bound is loose where threads outnumber cores: there
// a thread's own team takes its core, and a stretch preempted after short ones would carry whole
// time slices of the others; an `exact` clock (the executors' phase clocks there) reads the CPU
// clock around every stretch.
class StretchClock {
 public:
  static constexpr double kShortStretch = 20e-6;  // s

  explicit StretchClock(bool exact = false) : exact_(exact) {}

  void start() { start(wall_now()); }
  // The same, given the wall clock now (a caller that reads it anyway saves a read).
  void start(double wall_now) {
    wall_ = wall_now;
    if (read_cpu_) cpu_ = thread_cpu_now();
  }
  // CPU seconds since start().
  double stop() { return stop(wall_now()); }
  double stop(double wall_now) {
    const double wall = wall_now - wall_;
    double cpu = wall;
    if (read_cpu_)
      cpu = thread_cpu_now() - cpu_;
    else if (wall >= kShortStretch)
      ++walled_;
    read_cpu_ = exact_ || wall >= kShortStretch;
    return cpu;
  }
  std::int64_t walled() const { return walled_; }
  // Exact from the next stretch on, or no longer.
  void set_exact(bool exact) {
    exact_ = exact;
    read_cpu_ = read_cpu_ || exact;
  }

 private:
  bool exact_;
  bool read_cpu_ = true;  // the first stretch: nothing known yet
  double wall_ = 0, cpu_ = 0;
  std::int64_t walled_ = 0;
};

}  // namespace lbb
