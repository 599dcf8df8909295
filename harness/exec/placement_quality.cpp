#include "harness/exec/placement_quality.h"

namespace lbb {

Decision PlacementQuality::decide(const LoadView& view) {
  Decision d = inner_->decide(view);
  if (!first_ && d.act && static_cast<int>(d.owner.size()) == view.modules()) {
    const bool fits = graph_ && graph_->modules() == view.modules();
    first_ = partition_quality(d.owner, view.cost, view.speed, fits ? &*graph_ : nullptr);
  }
  return d;
}

std::vector<BalancerFigure> PlacementQuality::figures() const {
  std::vector<BalancerFigure> all = inner_->figures();
  if (!first_) return all;
  all.push_back({"partition_imbalance", first_->imbalance});
  if (first_->edge_cut >= 0) {
    all.push_back({"partition_edge_cut", static_cast<double>(first_->edge_cut)});
    all.push_back(
        {"partition_communication_volume", static_cast<double>(first_->communication_volume)});
  }
  return all;
}

}  // namespace lbb
