#include "balancers/between_steps/random.h"

#include <cmath>

#include "balancers/between_steps/parts/ideal_loads.h"
#include "core/splitmix.h"

namespace lbb {

BalancerInfo RandomNeighbour::info() {
  return unit_plan_entry(
      {"random",
       BalancerRole::kBetweenSteps,
       "random: a processor above threshold x its ideal load sends alpha of the excess to a "
       "random neighbour (Franklin & Govindan 1995, section 3.1)",
       {real_param("alpha", 0.5, "fraction of the excess over the threshold sent (Table 5)", 0.0,
                   1.0),
        real_param("threshold", 1.1, "w* as a factor of the ideal load (Table 5: 1.0-1.2)", 1.0),
        string_param("ideal", "global",
                     "ideal load the threshold scales: global w-bar (eq. 5) or local w~ (eq. 6)",
                     {"global", "local"}),
        int_param("seed", 1, "seed of the neighbour draws", 0)}},
      +[](const Params& p) {
        return std::make_unique<RandomNeighbour>(p.real("alpha"), p.real("threshold"),
                                                 p.text("ideal") == "local",
                                                 static_cast<std::uint64_t>(p.integer("seed")));
      });
}

TransferPlan RandomNeighbour::plan(const UnitLoads& in) const {
  TransferPlan plan = empty_plan(in.loads);
  const auto ideal = local_ideal_ ? local_ideal_loads(in.loads, in.speed, *in.topology)
                                  : balanced_loads(in.total_load(), in.speed);
  std::vector<UnitTransfer> transfers;
  for (int i = 0; i < in.processors(); ++i) {
    const double threshold = threshold_ * ideal[i];  // w*_i
    const auto& neighbours = in.topology->neighbours(i);
    if (!(static_cast<double>(in.loads[i]) > threshold) || neighbours.empty()) continue;
    const auto units = static_cast<std::int64_t>(
        std::floor(alpha_ * (static_cast<double>(in.loads[i]) - threshold) + 1e-9));
    const std::uint64_t draw =
        splitmix64(splitmix64(splitmix64(seed_) ^ static_cast<std::uint64_t>(in.step)) ^
                   static_cast<std::uint64_t>(i));
    transfers.push_back({i, neighbours[draw % neighbours.size()], units});
  }
  append_phase(plan, std::move(transfers));
  return plan;
}

}  // namespace lbb
