#include "balancers/between_steps/multilevel.h"

#include <stdexcept>
#include <utility>

namespace lbb {

namespace {

constexpr const char* kNeedsGraph =
    "multilevel with bisect: communication needs a communication graph, and this workload gives "
    "none (use bisect: topology)";

}  // namespace

BalancerInfo MultilevelDiffusion::info() {
  BalancerInfo info = unit_plan_entry(
      {"multilevel",
       BalancerRole::kBetweenSteps,
       "multi-level diffusion: recursive bisection of the processors, ceil(log2 P) transfer "
       "phases between neighbouring halves (Horton 1993, Algorithm 2)",
       {string_param("bisect", "topology",
                     "topology: halve a path through the processor topology and move work "
                     "between its neighbours; communication: halve the processor index order "
                     "and move work along the graph the workload's module adjacency induces "
                     "between processors (Horton 1993's communication graph; a workload "
                     "without one is an error)",
                     {"topology", "communication"})}},
      +[](const Params& p) {
        return std::make_unique<MultilevelDiffusion>(
            p.text("bisect") == "communication" ? Bisection::kCommunication : Bisection::kTopology);
      });
  info.needs_communication = [](const Params& p) {
    return p.text("bisect") == "communication" ? std::string(kNeedsGraph) : std::string();
  };
  return info;
}

BisectionTree MultilevelDiffusion::tree(const UnitLoads& in) const {
  if (bisect_ == Bisection::kCommunication && !in.communication)
    throw std::invalid_argument(kNeedsGraph);
  return BisectionTree(in, bisect_);
}

TransferPlan plan_of_cuts(const BisectionTree& tree, std::span<const std::int64_t> loads,
                          std::span<const std::vector<UnitTransfer>> moved) {
  TransferPlan plan = empty_plan(loads);
  const auto nodes = tree.nodes();
  std::vector<UnitTransfer> phase;
  for (std::size_t n = 0; n < nodes.size() && nodes[n].depth < tree.depth(); ++n) {
    phase.insert(phase.end(), moved[n].begin(), moved[n].end());
    if (n + 1 == nodes.size() || nodes[n + 1].depth != nodes[n].depth)    // nodes come by depth
      append_phase(plan, std::exchange(phase, {}), /*keep_empty=*/true);  // one phase per level
  }
  return plan;
}

// Sums up the tree, then each cut top down on its halves' sums and its inherited transfers.
TransferPlan MultilevelDiffusion::plan(const UnitLoads& in) const {
  const BisectionTree t = tree(in);
  const auto nodes = t.nodes();
  const std::vector<std::int64_t> sum = t.sums(in.loads);
  std::vector<std::vector<UnitTransfer>> inherited(nodes.size()), moved(nodes.size());
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    if (nodes[n].leaf()) continue;
    CutOutcome cut = t.descend(static_cast<int>(n), sum[nodes[n].left], sum[nodes[n].right],
                               inherited[n], in.speed);
    moved[n] = std::move(cut.moved);
    inherited[nodes[n].left] = std::move(cut.left);
    inherited[nodes[n].right] = std::move(cut.right);
  }
  return plan_of_cuts(t, in.loads, moved);
}

}  // namespace lbb
