#pragma once
// `static: plugin` and `static: python`: a user's balancer (docs/your-balancer.md) deciding the
// initial partition on the predicted weights, at step -1 with a block assignment as the owners:
// the same library or script as between steps, its answer checked alike. Keeping the assignment
// (LBB_PLUGIN_KEEP, None) keeps the block.
#include <memory>
#include <vector>

#include "balancers/balancer.h"

namespace lbb {

class UserPartition final : public Balancer {
 public:
  explicit UserPartition(std::unique_ptr<Balancer> user) : user_(std::move(user)) {}
  Decision decide(const LoadView& view) override;

 private:
  std::unique_ptr<Balancer> user_;
};

// `static: plugin`.
BalancerInfo plugin_partition_info();

// A between-step entry's parameters without its shadow (a partition has no built-in twin).
std::vector<ParamSpec> without_shadow(std::vector<ParamSpec> params);

}  // namespace lbb
