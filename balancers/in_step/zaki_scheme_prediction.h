#pragma once
// Zaki, Li & Parthasarathy 1997's customized choice: from a profile of the first steps, the
// total time each scheme is predicted to take, so that the cheapest can be run. The overheads
// are the paper's cost model (zaki_cost_model.h); the computation is modelled from the
// profiled rates.
#include <vector>

#include "balancers/in_step/zaki_cost_model.h"

namespace lbb {

struct SchemeProfile {
  std::vector<double> work;     // per processor: seconds of its modules at rate 1, one step
  std::vector<double> rate;     // per processor: its effective speed (speed / (1 + external load))
  double largest_module = 0;    // seconds at rate 1: no distribution finishes a step sooner
  double bytes_per_module = 0;  // state a migration copies
  int modules = 0;
};

struct SchemeSettings {
  int group_size = 4;  // K for the local schemes
  double profit = 0.10;
  double move_threshold = 0.01;
  ZakiNetwork network;
};

// Per step, per group: with no balancing the group takes max_p work_p / rate_p. A scheme
// synchronises when the group's fastest finishes (t1 = min_p work_p / rate_p), pays the cost
// model's synchronisation, and, when the move passes the threshold and profitability rules, the
// instructions and data movement too, then runs the remaining work R at the group's combined rate:
// t1 + cost + R / sum(rate). The distribution it leaves is kept, so every later step starts in
// proportion to rate within each group and pays the synchronisation only. A step lasts as long
// as its slowest group, and never less than the largest module at the fastest rate.
double predict_scheme_total(ProfiledScheme scheme, const SchemeProfile& profile, int steps,
                            const SchemeSettings& settings);

// No dynamic balancing: steps x max_p work_p / rate_p.
double predict_static_total(const SchemeProfile& profile, int steps);

}  // namespace lbb
