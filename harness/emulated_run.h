#pragma once
// One module (or task) run on an emulated processor (harness/platform_emulation.h): the work,
// then the calibrated busy work that stretches it to x (1 + L) / s, timed on the wall clock.
#include "harness/clock.h"
#include "harness/platform_emulation.h"

namespace lbb {

// Emulated load level weighted by the CPU time it applied to, over one processor's runs.
struct LoadTally {
  double loaded = 0;    // sum of level x CPU seconds before emulation
  double unloaded = 0;  // sum of CPU seconds before emulation
  double mean() const { return unloaded > 0 ? loaded / unloaded : 0; }
};

// Runs `work` on processor p and returns its wall seconds, emulation included. Emulation
// stretches by the work's CPU time (a wall-clock base would also stretch preemption); the two
// extra CPU clock reads are paid only when emulating.
template <class Work>
double run_emulated(const PlatformEmulation& emulation, int p, LoadTally& tally, Work&& work) {
  const bool emulate = emulation.active();
  const double ca = emulate ? thread_cpu_now() : 0.0;
  const double a = wall_now();
  work();
  double b = wall_now();
  if (emulate) {
    const double x = thread_cpu_now() - ca;
    const double level = emulation.load_at(p, b);
    busy_work(emulation.extra_seconds(p, x, level));
    tally.loaded += level * x;
    tally.unloaded += x;
    b = wall_now();
  }
  return b - a;
}

}  // namespace lbb
