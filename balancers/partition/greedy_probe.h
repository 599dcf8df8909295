#pragma once
// The greedy algorithm (Iqbal, Saltz & Bokhari 1986, section 5): PROBE plus a binary search of
// the bottleneck in [W_T/n, W_T/n + w_max] (with speeds: [W_T/S, W_T/S + w_max/s_min]) to an
// accuracy epsilon. The partition's bottleneck is within epsilon of the optimum, in
// O(m log(w_max/epsilon)) time.
#include <span>

#include "balancers/balancer.h"
#include "balancers/partition/chain_probe.h"

namespace lbb {

// epsilon >= 0 is absolute, in load units; 0 searches to the resolution of doubles.
ChainPartition greedy_probe(std::span<const double> weights, std::span<const double> speeds,
                            double epsilon);

// Module order is the chain, whatever view.structure says.
class GreedyProbe final : public Balancer {
 public:
  static BalancerInfo info();
  explicit GreedyProbe(const Params& params);
  Decision decide(const LoadView& view) override;

 private:
  double epsilon_;
};

}  // namespace lbb
