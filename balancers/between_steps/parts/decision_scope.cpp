#include "balancers/between_steps/parts/decision_scope.h"

#include <stdexcept>

namespace lbb {

bool decides_per_processor(DecisionScope scope) {
  return scope == DecisionScope::kNeighbours || scope == DecisionScope::kOwnAndTotal;
}

std::vector<int> scope_of(DecisionScope scope, const Topology& topology, int p) {
  if (!decides_per_processor(scope))
    throw std::invalid_argument("scope '" + std::string(scope_name(scope)) +
                                "': one processor decides for all");
  std::vector<int> out{p};
  if (scope == DecisionScope::kNeighbours)
    out.insert(out.end(), topology.neighbours(p).begin(), topology.neighbours(p).end());
  return out;
}

std::vector<UnitTransfer> rows_of(const TransferPlan& plan, int p) {
  if (plan.phases.size() > 1)
    throw std::logic_error("a plan decided per processor has one phase, not " +
                           std::to_string(plan.phases.size()));
  std::vector<UnitTransfer> out;
  if (plan.phases.empty()) return out;
  for (const UnitTransfer& t : plan.phases.front().transfers)
    if (t.from == p) out.push_back(t);
  return out;
}

TransferPlan plan_of_rows(std::span<const std::int64_t> loads, std::vector<UnitTransfer> rows) {
  TransferPlan plan = empty_plan(loads);
  append_phase(plan, std::move(rows));
  return plan;
}

}  // namespace lbb
