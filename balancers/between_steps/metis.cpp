#include "balancers/between_steps/metis.h"

#include <metis.h>

#include <numeric>
#include <stdexcept>
#include <string>

#include "balancers/between_steps/parts/graph_partition_balancer.h"
#include "balancers/partition/integer_weights.h"

namespace lbb {

BalancerInfo metis_balancer_info() {
  return graph_partition_info(
      "metis",
      "METIS k-way partition of the communication graph weighted by measured costs, parts "
      "sized by speed (Karypis & Kumar 1998; Charm++'s MetisLB idea)",
      "METIS", metis_owners);
}

Owners metis_owners(const LoadView& view, double imbalance, std::uint64_t seed) {
  idx_t n = view.modules(), constraints = 1, parts = view.processors(), cut = 0;
  if (parts == 1 || n == 0) return Owners(n, 0);
  std::vector<idx_t> xadj(n + 1, 0), adjacency, weight = integer_weights<idx_t>(view.cost), part(n);
  for (idx_t m = 0; m < n; ++m) {
    if (view.communication)
      for (int k : view.communication->neighbours(m)) adjacency.push_back(k);
    xadj[m + 1] = static_cast<idx_t>(adjacency.size());
  }
  adjacency.push_back(0);  // METIS reads through the pointer even with no links
  const double speeds = std::accumulate(view.speed.begin(), view.speed.end(), 0.0);
  std::vector<real_t> share(parts);
  for (idx_t p = 0; p < parts; ++p) share[p] = static_cast<real_t>(view.speed[p] / speeds);
  real_t tolerance = static_cast<real_t>(imbalance);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = static_cast<idx_t>(seed);
  const int rc =
      METIS_PartGraphKway(&n, &constraints, xadj.data(), adjacency.data(), weight.data(), nullptr,
                          nullptr, &parts, share.data(), &tolerance, options, &cut, part.data());
  if (rc != METIS_OK)
    throw std::runtime_error("METIS_PartGraphKway failed (" + std::to_string(rc) + ")");
  return Owners(part.begin(), part.end());
}

}  // namespace lbb
