#pragma once
// A unit-level decision taken processor by processor, each on the loads its scope reads
// (DecisionScope): what the MPI executor sends each rank, and what tests/balancer_scope_test.cpp
// checks a balancer's plan keeps to.
#include <cstdint>
#include <vector>

#include "balancers/balancer.h"
#include "balancers/between_steps/parts/transfer_plan.h"

namespace lbb {

// The load a scoped view holds for a processor outside the scope: a decision that reads it is
// wrong, and the scope test sees it.
inline constexpr std::int64_t kUnreadLoad = -(std::int64_t{1} << 40);
// The same for a busy time or a module's cost outside a group's scope (DecisionScope::kGroup).
inline constexpr double kUnreadSeconds = 1e9;

// True for the scopes a processor decides its own transfers on (kNeighbours, kOwnAndTotal).
bool decides_per_processor(DecisionScope scope);

// The processors whose loads processor p's transfers read under `scope`: p, then its topology
// neighbours for kNeighbours. Only for decides_per_processor scopes.
std::vector<int> scope_of(DecisionScope scope, const Topology& topology, int p);

// Processor p's rows of a single-phase plan: the transfers it sends, in the plan's order.
std::vector<UnitTransfer> rows_of(const TransferPlan& plan, int p);

// The plan that the rows of every processor make together, from `loads` (all processors').
TransferPlan plan_of_rows(std::span<const std::int64_t> loads, std::vector<UnitTransfer> rows);

}  // namespace lbb
