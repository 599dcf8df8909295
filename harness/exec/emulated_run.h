#pragma once
// One module (or task) run on an emulated processor (harness/base/platform_emulation.h): the work,
// then the calibrated busy work that stretches it to x (1 + L) / s, timed on the wall clock.
#include <utility>

#include "harness/base/clock.h"
#include "harness/base/platform_emulation.h"

namespace lbb {

// Emulated load level weighted by the CPU time it applied to, over one processor's runs.
struct LoadTally {
  double loaded = 0;    // sum of level x CPU seconds before emulation
  double unloaded = 0;  // sum of CPU seconds before emulation
  double mean() const { return unloaded > 0 ? loaded / unloaded : 0; }
};

// Runs `work` on processor p and returns the wall time it ended at, emulation included.
// Callers running modules back to back take one end as the next start: one wall clock read a
// module. Emulation stretches by the work's CPU time (a wall-clock base would also stretch
// preemption); the two extra CPU clock reads are paid only when emulating.
template <class Work>
double run_emulated_until_end(const PlatformEmulation& emulation, int p, LoadTally& tally,
                              Work&& work) {
  const bool emulate = emulation.active();
  const double ca = emulate ? thread_cpu_now() : 0.0;
  work();
  double end = wall_now();
  if (emulate) {
    const double x = thread_cpu_now() - ca;
    const double level = emulation.load_at(p, end);
    busy_work(emulation.extra_seconds(p, x, level));
    tally.loaded += level * x;
    tally.unloaded += x;
    end = wall_now();
  }
  return end;
}

// Runs `work` on processor p and returns its wall seconds, emulation included.
template <class Work>
double run_emulated(const PlatformEmulation& emulation, int p, LoadTally& tally, Work&& work) {
  const double start = wall_now();
  return run_emulated_until_end(emulation, p, tally, std::forward<Work>(work)) - start;
}

}  // namespace lbb
