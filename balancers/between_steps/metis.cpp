#include "balancers/between_steps/metis.h"

#include <metis.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>

#include "balancers/between_steps/parts/reassignment.h"
#include "balancers/between_steps/parts/unit_plan_balancer.h"
#include "balancers/partition/integer_weights.h"

namespace lbb {

BalancerInfo MetisBalancer::info() {
  return {
      "metis",
      BalancerRole::kBetweenSteps,
      "METIS k-way partition of the communication graph weighted by measured costs, parts "
      "sized by speed (Karypis & Kumar 1998; Charm++'s MetisLB idea)",
      {real_param("imbalance", 1.05, "largest part's weight over its share, at most", 1.001, 10.0),
       int_param("seed", 1, "METIS's random seed", 0, 1 << 30), min_gain_param()},
      [](const Params& p) {
        return std::make_unique<MetisBalancer>(
            p.real("imbalance"), static_cast<std::uint64_t>(p.integer("seed")), p.real("min_gain"));
      }};
}

namespace {

// Renumbers the parts so that each goes to the processor of its speed (the size METIS gave it)
// holding most of its modules, the largest overlaps matched first.
void keep_in_place(Owners& part, std::span<const int> owner, std::span<const double> speed) {
  const int P = static_cast<int>(speed.size());
  std::vector<std::tuple<int, int, int>> overlap;  // (-modules, part, processor)
  std::vector<int> order(part.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return std::tie(part[a], owner[a]) < std::tie(part[b], owner[b]);
  });
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int m = order[i];
    if (speed[part[m]] != speed[owner[m]]) continue;
    if (overlap.empty() || std::get<1>(overlap.back()) != part[m] ||
        std::get<2>(overlap.back()) != owner[m])
      overlap.emplace_back(0, part[m], owner[m]);
    --std::get<0>(overlap.back());
  }
  std::sort(overlap.begin(), overlap.end());
  std::vector<int> to(P, -1);
  std::vector<char> taken(P, 0);
  for (auto [count, k, p] : overlap)
    if (to[k] < 0 && !taken[p]) to[k] = p, taken[p] = 1;
  for (int k = 0; k < P; ++k)
    for (int p = 0; to[k] < 0; ++p)
      if (!taken[p] && speed[p] == speed[k]) to[k] = p, taken[p] = 1;
  for (int& k : part) k = to[k];
}

}  // namespace

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
  Owners owner(part.begin(), part.end());
  if (!view.owner.empty()) keep_in_place(owner, view.owner, view.speed);
  return owner;
}

Decision MetisBalancer::decide(const LoadView& view) {
  return reassignment(view, starting_owners(view), metis_owners(view, imbalance_, seed_),
                      min_gain_);
}

}  // namespace lbb
