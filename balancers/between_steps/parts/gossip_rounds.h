#pragma once
// The gossip balancer's decision (gossip.h) on the processors' holdings: each processor's modules
// and its time. GossipBalancer::decide builds the holdings from its LoadView every step; the
// simulator at scale (harness/sim/scale_sim.h) keeps one across steps and changes only what
// moves. Both make the same decisions, in time that grows with the gossip and the overloaded
// processors' modules rather than with all modules.
#include <span>
#include <vector>

#include "balancers/between_steps/gossip.h"

namespace lbb {

struct GossipMove {
  int module = 0;
  int from = 0;  // its owner before the decision
  int to = 0;
};

class GossipHoldings {
 public:
  // cost and speed must outlive the holdings.
  GossipHoldings(std::span<const int> owner, std::span<const double> cost,
                 std::span<const double> speed);
  int processors() const { return static_cast<int>(held_.size()); }
  std::span<const int> modules(int p) const { return held_[p]; }  // ascending
  std::span<const double> times() const { return time_; }
  std::span<const double> cost() const { return cost_; }
  std::span<const double> speed() const { return speed_; }
  double average() const { return average_; }  // total cost over total speed
  void apply(std::span<const GossipMove> moves);

 private:
  void resum(int p);

  std::span<const double> cost_, speed_;
  std::vector<std::vector<int>> held_;
  std::vector<double> time_;  // its modules' costs summed in module order, over its speed
  double average_ = 0;
};

// One decision at `step`, applied to `holdings`: the modules whose owner it changes, with their
// owners before and after (a module moved twice over the iterations appears once).
std::vector<GossipMove> gossip_decide(const GossipSettings& settings, GossipHoldings& holdings,
                                      int step);

}  // namespace lbb
