#pragma once
#include <memory>
#include <string>

#include "balancers/balancer.h"

namespace lbb {

// Franklin & Govindan 1995, section 3.3 (eq. 12-13): when any processor's load exceeds threshold
// x its global ideal (eq. 5), repartition every module from scratch with a static partitioner.
// "auto" picks the best one for the modules' structure at decision time: optimal_chain for
// chains, orb (the paper's orthogonal recursive bisection) for spatial modules, lpt otherwise.
class CompleteRedistribution final : public Balancer {
 public:
  CompleteRedistribution(double threshold, std::string partitioner)
      : threshold_(threshold), partitioner_(std::move(partitioner)) {}
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

  // The static partitioner "auto" means for a structure.
  static std::string partitioner_for(ModuleStructure structure);

 private:
  double threshold_;
  std::string partitioner_;
  std::string made_name_;  // the partitioner made last, reused while the name stays the same
  std::unique_ptr<Balancer> made_;
};

}  // namespace lbb
