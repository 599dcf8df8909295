#include "balancers/between_steps/diffusion.h"

#include <cmath>

#include "balancers/between_steps/parts/ideal_loads.h"

namespace lbb {

BalancerInfo LocalAverageDiffusion::info() {
  return unit_plan_entry(
      {"diffusion",
       BalancerRole::kBetweenSteps,
       "diffusion: a processor above threshold x its local ideal sends the excess to lighter "
       "neighbours in proportion to their deficit (Franklin & Govindan 1995, section 3.2)",
       {real_param("threshold", 1.2,
                   "w* as a factor of the local ideal w~ (Tables 3 and 5: best 1.2)", 1.0)}},
      +[](const Params& p) {
        return std::make_unique<LocalAverageDiffusion>(p.real("threshold"));
      });
}

TransferPlan LocalAverageDiffusion::plan(const UnitLoads& in) const {
  TransferPlan plan = empty_plan(in.loads);
  const auto local = local_ideal_loads(in.loads, in.speed, *in.topology);
  std::vector<UnitTransfer> transfers;
  for (int i = 0; i < in.processors(); ++i) {
    const auto load = static_cast<double>(in.loads[i]);
    if (!(load > threshold_ * local[i])) continue;  // A_ii = 0
    std::vector<std::pair<int, double>> deficits;   // M_ij before normalisation, eq. 9
    double total = 0;
    for (int j : in.topology->neighbours(i)) {
      const double deficit =
          local[i] * in.speed[j] / in.speed[i] - static_cast<double>(in.loads[j]);
      if (deficit > 0) {
        deficits.emplace_back(j, deficit);
        total += deficit;
      }
    }
    const double excess = load - local[i];
    for (auto [j, deficit] : deficits)  // sum_j M_ij = 1, eq. 10
      transfers.push_back(
          {i, j, static_cast<std::int64_t>(std::floor(excess * deficit / total + 1e-9))});
  }
  append_phase(plan, std::move(transfers));
  return plan;
}

}  // namespace lbb
