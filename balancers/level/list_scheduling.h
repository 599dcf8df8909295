#pragma once
// Graham's list scheduling with the communication constraint, the yardstick L2 of Hwang & Hong
// 2001: the tasks of a level, in creation order, each go to the processor that finishes them
// first among those within t_a = floor(C_max / (B_a + M_a)) hops of the task's creator.
#include <span>
#include <vector>

#include "balancers/balancer.h"

namespace lbb {

// L2 as a pure function; c_max is a multiple of the mean processor load sum_a E_a / N. Ties go to
// the processor nearer the creator, then to the lower index.
std::vector<int> list_schedule(std::span<const double> cost, std::span<const double> hop_cost,
                               std::span<const int> creator, std::span<const double> speed,
                               const Topology& topology, double c_max);

class ListScheduling final : public Balancer {
 public:
  static BalancerInfo info();
  explicit ListScheduling(double c_max) : c_max_(c_max) {}
  Decision decide(const LoadView& view) override;

 private:
  double c_max_;
};

}  // namespace lbb
