#pragma once
// The module-level decision of a balancer that plans in integer work units: measure the units of
// every processor, plan transfers (the balancer's unit-level algorithm), then realise the net
// transfers with concrete modules.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "balancers/balancer.h"
#include "balancers/between_steps/transfer_plan.h"

namespace lbb {

// Loads in Horton 1993's integer units. One unit is the mean module cost, so modules of equal
// cost are one unit each and units approximate what whole modules can realise.
struct ModuleUnits {
  double quantum = 0;  // cost of one unit; 0 when there is no cost at all
  std::vector<std::int64_t> loads;
};
ModuleUnits module_units(std::span<const int> owner, std::span<const double> cost, int processors);

class UnitPlanBalancer : public Balancer, public UnitLevelBalancer {
 public:
  // Starts from the block assignment when the view has no owners yet (and then always acts).
  Decision decide(const LoadView& view) final;
};

// The registry entry of a unit-plan balancer: one typed factory serves both forms, so the entry
// declares its unit-level form (BalancerInfo::make_unit_level) instead of tools discovering it.
template <class T>
BalancerInfo unit_plan_entry(BalancerInfo info, std::unique_ptr<T> (*make)(const Params&)) {
  info.make = [make](const Params& p) -> std::unique_ptr<Balancer> { return make(p); };
  info.make_unit_level = [make](const Params& p) -> std::unique_ptr<UnitLevelBalancer> {
    return make(p);
  };
  return info;
}

}  // namespace lbb
