#include "balancers/partition/plugin.h"

#include "balancers/between_steps/plugin.h"
#include "balancers/partition/block.h"

namespace lbb {

Decision UserPartition::decide(const LoadView& view) {
  Decision d = user_->decide(view);
  if (!d.act) return {true, block_owners(view.modules(), view.processors()), 1};
  return d;
}

std::vector<ParamSpec> without_shadow(std::vector<ParamSpec> params) {
  std::erase_if(params, [](const ParamSpec& p) { return p.name == "shadow"; });
  return params;
}

BalancerInfo plugin_partition_info() {
  return {"plugin", BalancerRole::kPartition,
          "your own partitioner: a balancer plugin (docs/your-balancer.md) deciding once, on "
          "the predicted weights, from a block assignment",
          without_shadow(PluginBalancer::info().params), [](const Params& p) {
            return std::make_unique<UserPartition>(
                std::make_unique<PluginBalancer>(p.text("library"), p.text("params")));
          }};
}

}  // namespace lbb
