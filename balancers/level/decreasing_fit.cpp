#include "balancers/level/decreasing_fit.h"

#include <stdexcept>

#include "balancers/level/max_gain_fit.h"
#include "balancers/level/tree_mesh.h"

namespace lbb {

std::vector<int> decreasing_fit(std::span<const double> cost, std::span<const int> creator,
                                std::span<const double> speed, const Topology& topology) {
  if (creator.size() != cost.size())
    throw std::invalid_argument("decreasing_fit: costs and creators differ in length");
  return max_gain_fit(cost, {}, creator, speed, topology);  // with free moves, the same rule
}

BalancerInfo DecreasingFit::info() {
  return {"decreasing_fit",
          BalancerRole::kLevel,
          "tasks by non-increasing cost, each to the processor finishing it first, any distance "
          "(Hwang & Hong 2001, yardstick L3)",
          {},
          [](const Params&) { return std::make_unique<DecreasingFit>(); }};
}

Decision DecreasingFit::decide(const LoadView& view) {
  if (!view.topology) throw std::invalid_argument("decreasing_fit needs a topology");
  return {true, decreasing_fit(view.cost, creators_of(view), view.speed, *view.topology), 1};
}

}  // namespace lbb
