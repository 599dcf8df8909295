#pragma once
// The simulator at scale (issue 37, item 4): a million virtual processors and a hundred million
// modules whose costs stay fixed over the run (a synthetic draw, no redraw), under a between-step
// balancer. It keeps only what such a run needs: each module's owner (int32) and cost (borrowed,
// never copied), and each processor's load, updated as modules move rather than summed again.
// A step's makespan is the largest load over speed (no external load, contention or charges).
// The balancer sees the LoadView the ordinary simulator (simulate_executor.h) gives it, less the
// module sizes (empty: no balancer between steps reads them), so it is the same balancer object
// making the same decisions, which tests/scale_sim_test.cpp checks step by step against the
// ordinary simulator. Multilevel and gossip also have paths of their own (below) that make the
// same decisions without a pass over every module each step.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "balancers/balancer.h"
#include "balancers/between_steps/parts/gossip_rounds.h"
#include "balancers/between_steps/parts/multilevel_chain.h"

namespace lbb {

struct ScaleStep {
  double makespan = 0;          // max_p load / speed during the step
  double decide_cpu = 0;        // thread CPU seconds of the balancer's decision
  std::int64_t migrations = 0;  // modules the decision moved
};

class ScaleSim {
 public:
  // Block partition of cost.size() modules over speed.size() processors; cost must outlive it.
  ScaleSim(std::span<const double> cost, std::vector<double> speed, const Topology& topology,
           ModuleStructure structure = ModuleStructure::kChain);
  // Runs step `step` on the current owners, then lets `balancer` decide on its costs.
  ScaleStep step(int step, Balancer& balancer);
  // Multilevel diffusion on the chain's contiguous ranges (multilevel_chain.h): the decisions
  // make_balancer("multilevel") makes through step() above, in time that grows with the
  // processors and the modules that move. Only from the block partition or its own steps.
  ScaleStep step(int step, const MultilevelDiffusion& multilevel, double min_gain);
  // The gossip on holdings kept across steps (gossip_rounds.h): the decisions
  // make_balancer("gossip") makes through step() above, in time that grows with the gossip and
  // the overloaded processors' modules.
  ScaleStep step(int step, const GossipSettings& gossip);

  std::span<const int> owner() const { return owner_; }
  std::span<const double> loads() const { return load_; }  // per processor, sum of costs
  double makespan() const;

 private:
  std::int64_t move_to(std::span<const int> next);
  std::int64_t move_ranges(const ChainRanges& next);

  std::span<const double> cost_;
  std::vector<double> speed_;
  const Topology& topology_;
  ModuleStructure structure_;
  std::vector<int> owner_;
  std::vector<double> load_, busy_;
  bool block_ = true;                // owners are still the block partition
  std::optional<ChainCosts> chain_;  // the chain's running cost sums, once a chain step needs them
  ChainRanges ranges_;               // the owners as ranges, in chain steps
  std::optional<GossipHoldings> holdings_;  // the owners by processor, in gossip steps
};

}  // namespace lbb
