#include "balancers/between_steps/parts/reassignment.h"

#include <algorithm>

#include "balancers/partition/block.h"

namespace lbb {

Owners starting_owners(const LoadView& view) {
  if (!view.owner.empty()) return {view.owner.begin(), view.owner.end()};
  return block_owners(view.modules(), view.processors());
}

Decision reassignment(const LoadView& view, std::span<const int> before, Owners after,
                      double min_gain) {
  Decision d;
  d.predicted_before = bottleneck(before, view.cost, view.speed);
  d.predicted_after = bottleneck(after, view.cost, view.speed);
  const bool pays = min_gain <= 0 || d.predicted_after < (1 - min_gain) * d.predicted_before;
  d.act =
      view.owner.empty() || (pays && !std::equal(after.begin(), after.end(), view.owner.begin()));
  if (!d.act) return d;
  d.owner = std::move(after);
  d.phases = 1;
  return d;
}

}  // namespace lbb
