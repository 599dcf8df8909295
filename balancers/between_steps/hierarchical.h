#pragma once
// A two-level tree of groups (Zheng, Bhatele, Meneses & Kale 2011, HierarchicalLB / HybridLB):
// processors in groups of `group` consecutive ids; first the root balances across the groups,
// each seen as one processor of its summed speed (`across`), then each group balances its own
// processors on the modules it now holds (`within`). A module the root sends to another group
// lands on that group's least-loaded processor before the group decides. Groups whose loads
// are within the across balancer's tolerance keep every module among their own processors.
#include <memory>
#include <string>

#include "balancers/balancer.h"

namespace lbb {

class HierarchicalBalancer final : public Balancer {
 public:
  HierarchicalBalancer(int group, const std::string& within, const std::string& across);
  static BalancerInfo info();
  Decision decide(const LoadView& view) override;

 private:
  // Owners after the root's decision: each module's group, arrivals on the group's least loaded.
  std::vector<int> across_groups(const LoadView& view, std::vector<int> owner);
  // Group g's own decision on its modules, into `owner`.
  void within_group(const LoadView& view, int g, std::vector<int>& owner);

  int group_;
  std::unique_ptr<Balancer> within_, across_;
};

}  // namespace lbb
