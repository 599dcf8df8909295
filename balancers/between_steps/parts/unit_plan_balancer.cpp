#include "balancers/between_steps/parts/unit_plan_balancer.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>

#include "balancers/partition/block.h"
#include "core/assignment.h"

namespace lbb {

ModuleUnits module_units(std::span<const int> owner, std::span<const double> cost, int processors) {
  ModuleUnits out;
  out.loads.assign(processors, 0);
  if (cost.empty()) return out;
  const double total = std::accumulate(cost.begin(), cost.end(), 0.0);
  if (!(total > 0)) return out;
  out.quantum = total / (static_cast<double>(cost.size()) * kUnitsPerModule);
  std::vector<double> work(processors, 0.0);
  for (std::size_t m = 0; m < owner.size(); ++m) work[owner[m]] += cost[m];
  for (int p = 0; p < processors; ++p) out.loads[p] = std::llround(work[p] / out.quantum);
  return out;
}

ParamSpec min_gain_param() {
  return real_param("min_gain", 0.05,
                    "move modules only when the predicted makespan falls by more than this "
                    "fraction",
                    0.0, 1.0);
}

namespace {

// The largest module each processor holds: how far whole modules may miss a transfer.
std::vector<double> largest_module(std::span<const int> owner, std::span<const double> cost,
                                   int processors) {
  std::vector<double> out(processors, 0.0);
  for (std::size_t m = 0; m < owner.size(); ++m) out[owner[m]] = std::max(out[owner[m]], cost[m]);
  return out;
}

double makespan(std::span<const int> owner, const LoadView& view) {
  const auto loads = processor_loads(owner, view.cost, view.speed);
  return loads.empty() ? 0.0 : *std::max_element(loads.begin(), loads.end());
}

}  // namespace

UnitPlanOutcome UnitPlanBalancer::outcome(const LoadView& view, const TransferPlan* given) const {
  if (!view.topology || view.topology->size() != view.processors())
    throw std::invalid_argument("the view's topology does not match its processors");
  UnitPlanOutcome out;
  out.owner = view.owner.empty() ? block_owners(view.modules(), view.processors())
                                 : Owners(view.owner.begin(), view.owner.end());
  out.next = out.owner;
  out.before = out.after = makespan(out.owner, view);
  const ModuleUnits units = module_units(out.owner, view.cost, view.processors());
  out.quantum = units.quantum;
  if (units.quantum <= 0) return out;
  // The problem's communication graph reaches the plan as the one it induces between processors.
  std::optional<ModuleGraph> links;
  if (view.communication && !given)
    links = induced_processor_graph(*view.communication, out.owner, view.processors());
  out.plan =
      given ? *given
            : plan({units.loads, view.speed, view.topology, view.step, links ? &*links : nullptr});
  for (const auto& t : net_transfers(out.plan))
    out.planned.push_back({t.from, t.to, static_cast<double>(t.units) * units.quantum});
  if (out.planned.empty()) return out;
  // Only multi-phase plans route units through processors.
  out.next =
      realize_transfers(view, out.owner, out.planned, out.plan.phases.size() > 1, &out.realised);
  const auto largest = largest_module(out.owner, view.cost, view.processors());
  for (std::size_t k = 0; k < out.planned.size(); ++k) {
    // A sender forwarding what it received may pass on its neighbours' modules too.
    const auto& t = out.planned[k];
    const double tol = out.plan.phases.size() > 1
                           ? *std::max_element(largest.begin(), largest.end())
                           : largest[t.from];
    out.tolerance.push_back(tol);
    out.plan_met = out.plan_met && std::abs(out.realised[k] - t.cost) <= tol * (1 + 1e-9);
  }
  out.after = makespan(out.next, view);
  return out;
}

Decision UnitPlanBalancer::decide(const LoadView& view) {
  return decision(view, outcome(view));
}

Decision UnitPlanBalancer::decide_planned(const LoadView& view, const TransferPlan& given) {
  return decision(view, outcome(view, &given));
}

Decision UnitPlanBalancer::decision(const LoadView& view, UnitPlanOutcome o) const {
  const bool initial = view.owner.empty();
  Decision keep{initial, initial ? o.owner : Owners{}, 0, o.before, o.before};
  if (o.planned.empty() || o.next == o.owner) return keep;
  if (!o.plan_met)
    throw std::logic_error(
        "unit plan: the chosen modules miss a planned transfer by more than "
        "one module's cost");
  keep.predicted_after = o.after;
  if (!initial && !(o.after < (1 - min_gain_) * o.before)) return keep;  // does not pay
  return {true, std::move(o.next), static_cast<int>(o.plan.phases.size()), o.before, o.after};
}

}  // namespace lbb
