#pragma once
// Emulated platform heterogeneity: slower processors and transient external load (Zaki, Li &
// Parthasarathy 1997: load of maximum amplitude m persisting d seconds). After each module the
// executor adds calibrated busy work so that a module of x CPU seconds takes x (1 + L) / s on a
// processor of speed s under load L; the work is real arithmetic, so it counts as busy on both
// clocks, and balancers only see its effect in the measured costs.
#include <cstdint>
#include <span>
#include <vector>

#include "core/params.h"

namespace lbb {

// A processor's relative speed in `partition` and `balance`: 10^-6 to 10^6, so a load over a
// speed and a load times a speed stay far inside a double (loads are at most 2^53 units). Speeds
// 1e-308 and 1e308 side by side made diffusion_horton move -2^63 units a phase.
const ParamSpec& relative_speed_spec();

struct ExternalLoad {
  std::vector<double> max;  // m of each processor: its largest load level; 0 or missing: none
  double persist_s = 0.2;   // d: seconds one level lasts
  std::uint64_t seed = 1;

  double max_of(int p) const { return p < static_cast<int>(max.size()) ? max[p] : 0.0; }
  bool any() const;  // whether some processor has a level above 0
};

class PlatformEmulation {
 public:
  // start: the wall-clock time load intervals are counted from.
  PlatformEmulation(std::span<const double> speed, const ExternalLoad& load, double start);

  // False when every speed is 1 and there is no external load: nothing to add.
  bool active() const { return active_; }
  // Load level of processor p at wall time t: uniform in [0, its max], drawn per processor and per
  // interval of persist_s seconds from the seed (the same for every run with that seed).
  double load_at(int p, double t) const;
  // Busy seconds to add after a module that ran `seconds` on processor p under load `level`.
  double extra_seconds(int p, double seconds, double level) const;

 private:
  std::vector<double> speed_;
  ExternalLoad load_;
  double start_;
  bool active_;
};

// Runs `seconds` of CPU work on the calling thread (floating-point arithmetic), measured by the
// thread CPU clock, so preemption does not shorten it.
void busy_work(double seconds);

// The calibrated rate, iterations of busy_work's loop per CPU second.
double busy_work_rate();

}  // namespace lbb
