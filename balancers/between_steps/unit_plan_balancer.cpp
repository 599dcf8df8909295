#include "balancers/between_steps/unit_plan_balancer.h"

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "balancers/between_steps/transfer_realization.h"
#include "balancers/partition/block.h"

namespace lbb {

ModuleUnits module_units(std::span<const int> owner, std::span<const double> cost, int processors) {
  ModuleUnits out;
  out.loads.assign(processors, 0);
  if (cost.empty()) return out;
  const double total = std::accumulate(cost.begin(), cost.end(), 0.0);
  if (!(total > 0)) return out;
  out.quantum = total / static_cast<double>(cost.size());
  std::vector<double> work(processors, 0.0);
  for (std::size_t m = 0; m < owner.size(); ++m) work[owner[m]] += cost[m];
  for (int p = 0; p < processors; ++p) out.loads[p] = std::llround(work[p] / out.quantum);
  return out;
}

Decision UnitPlanBalancer::decide(const LoadView& view) {
  if (!view.topology || view.topology->size() != view.processors())
    throw std::invalid_argument("the view's topology does not match its processors");
  const bool initial = view.owner.empty();
  Owners owner = initial ? block_owners(view.modules(), view.processors())
                         : Owners(view.owner.begin(), view.owner.end());
  Decision keep{initial, initial ? owner : Owners{}, 0};
  const ModuleUnits units = module_units(owner, view.cost, view.processors());
  if (units.quantum <= 0) return keep;
  const TransferPlan plan = this->plan({units.loads, view.speed, view.topology, view.step});
  std::vector<CostTransfer> transfers;
  for (const auto& t : net_transfers(plan))
    transfers.push_back({t.from, t.to, static_cast<double>(t.units) * units.quantum});
  if (transfers.empty()) return keep;
  // Only multi-phase plans route units through processors.
  Owners next = realize_transfers(view, owner, transfers, plan.phases.size() > 1);
  if (!initial && next == owner) return keep;
  return {true, std::move(next), static_cast<int>(plan.phases.size())};
}

}  // namespace lbb
