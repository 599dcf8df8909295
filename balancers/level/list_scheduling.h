#pragma once
// List scheduling with the communication constraint, the yardstick L2 of Hwang & Hong 2001: the
// tasks of a level, in creation order, each go to one processor within t_a = floor(C_max /
// (B_a + M_a)) hops of the task's creator, chosen by a rule:
// - kLevelCost (the default): the processor that least raises the level's cost so far, T_i =
//   max load + max d(f(a), g(a)) (B_a + M_a) of the tasks placed (Hwang & Hong 2001, section 3),
//   so the communication term enters the choice; ties (the task fits under both maxima) go to
//   the processor finishing it first, as Graham's rule;
// - kEarliestFinish: the processor finishing it first, communication ignored beyond the
//   constraint (Graham's rule alone).
// Remaining ties go to the processor nearer the creator, then to the lower index.
#include <span>
#include <vector>

#include "balancers/balancer.h"

namespace lbb {

enum class ListRule { kLevelCost, kEarliestFinish };

// L2 as a pure function; c_max is a multiple of the mean processor load sum_a E_a / N.
std::vector<int> list_schedule(std::span<const double> cost, std::span<const double> hop_cost,
                               std::span<const int> creator, std::span<const double> speed,
                               const Topology& topology, double c_max,
                               ListRule rule = ListRule::kLevelCost);

class ListScheduling final : public Balancer {
 public:
  static BalancerInfo info();
  ListScheduling(double c_max, ListRule rule) : c_max_(c_max), rule_(rule) {}
  Decision decide(const LoadView& view) override;

 private:
  double c_max_;
  ListRule rule_;
};

}  // namespace lbb
