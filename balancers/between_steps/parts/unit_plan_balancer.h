#pragma once
// The module-level decision of a balancer that plans in integer work units: measure the units of
// every processor, plan transfers (the balancer's unit-level algorithm), realise the net
// transfers with concrete modules chosen by their measured costs, check the result against the
// plan, and act only when it lowers the predicted makespan enough.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "balancers/balancer.h"
#include "balancers/between_steps/parts/transfer_plan.h"
#include "balancers/between_steps/parts/transfer_realization.h"

namespace lbb {

// Loads in Horton 1993's integer units. One unit is 1/kUnitsPerModule of the mean module cost:
// fine enough that rounding a processor's load to units is far below one module's cost, while
// plans stay integer as Horton's algorithms require.
inline constexpr int kUnitsPerModule = 8;
struct ModuleUnits {
  double quantum = 0;  // cost of one unit; 0 when there is no cost at all
  std::vector<std::int64_t> loads;
};
ModuleUnits module_units(std::span<const int> owner, std::span<const double> cost, int processors);

// Everything one decision computed, for decide and for the tests that check it.
struct UnitPlanOutcome {
  TransferPlan plan;
  double quantum = 0;
  std::vector<CostTransfer> planned;  // the plan's net transfers, in cost
  std::vector<double> realised;       // cost the chosen modules carry, per planned transfer
  std::vector<double> tolerance;      // per planned transfer: the largest module its sender held
  Owners owner, next;                 // before and after
  double before = 0, after = 0;       // predicted makespans, max_p sum(cost) / speed
  bool plan_met = true;               // every realised transfer within its tolerance
};

class UnitPlanBalancer : public Balancer, public UnitLevelBalancer {
 public:
  // Starts from the block assignment when the view has no owners yet (and then always acts).
  Decision decide(const LoadView& view) final;
  // decide with `given` in place of plan(): a plan whose rows the processors decided apart, each
  // on its scope's loads (harness/mpi/), realised and guarded as decide's own.
  Decision decide_planned(const LoadView& view, const TransferPlan& given);
  // `given`: as decide_planned's; null: plan() on the view's units.
  UnitPlanOutcome outcome(const LoadView& view, const TransferPlan* given = nullptr) const;
  // A decision moves modules only when the predicted makespan falls below (1 - min_gain) x its
  // current value: the guard against moves that do not pay (and against thrashing).
  void set_min_gain(double min_gain) { min_gain_ = min_gain; }

 private:
  Decision decision(const LoadView& view, UnitPlanOutcome o) const;
  double min_gain_ = 0;
};

ParamSpec min_gain_param();

// The registry entry of a unit-plan balancer: one typed factory serves both forms, so the entry
// declares its unit-level form (BalancerInfo::make_unit_level) instead of tools discovering it;
// every such entry takes min_gain.
template <class T>
BalancerInfo unit_plan_entry(BalancerInfo info, std::unique_ptr<T> (*make)(const Params&)) {
  info.params.push_back(min_gain_param());
  info.make = [make](const Params& p) -> std::unique_ptr<Balancer> {
    auto balancer = make(p);
    balancer->set_min_gain(p.real("min_gain"));
    return balancer;
  };
  info.make_unit_level = [make](const Params& p) -> std::unique_ptr<UnitLevelBalancer> {
    return make(p);
  };
  return info;
}

}  // namespace lbb
