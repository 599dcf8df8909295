#include "balancers/partition/python.h"

#include "balancers/between_steps/python.h"
#include "balancers/partition/plugin.h"

namespace lbb {

BalancerInfo python_partition_info() {
  std::vector<ParamSpec> params = without_shadow(PythonBalancer::info().params);
  for (ParamSpec& s : params)
    if (s.name == "function") s.default_value = std::string("partition");
  return {"python", BalancerRole::kPartition,
          "your own partitioner in Python: FUNCTION(view, params) of a script "
          "(docs/your-balancer.md), once, on the predicted weights, from a block assignment",
          std::move(params), [](const Params& p) {
            return std::make_unique<UserPartition>(std::make_unique<PythonBalancer>(
                p.text("script"), p.text("function"), p.text("params")));
          }};
}

}  // namespace lbb
