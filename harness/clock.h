#pragma once
// The two clocks (DESIGN.md "Two clocks"): a cheap monotonic wall clock (vDSO, ~25 ns) per
// module, and the thread CPU clock (a system call, ~190 ns) per processor per phase.
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

}  // namespace lbb
