#pragma once
// A unit-plan balancer whose processors decide their own transfers on their scope's loads
// (DecisionScope::kNeighbours, kOwnAndTotal: Franklin & Govindan 1995's random and diffusion),
// across ranks as its paper has it: each rank receives, point to point, the loads of the other
// ranks' processors that its processors' decisions read (a neighbour scope), or the sum of all
// loads in one reduction (kOwnAndTotal); it plans its processors' transfers on a view in which
// every other load is poisoned (kUnreadLoad); the transfers reach every rank (the migration
// notices: every rank keeps every owner), and every rank realises them alike.
#include "balancers/between_steps/unit_plan_balancer.h"
#include "harness/mpi/rank_exchange.h"

namespace lbb {

struct ScopedDecision {
  Decision decision;  // the same on every rank
  Traffic traffic;    // this rank's sends: loads, the total's reduction, its transfers
};

// Collective. `view`: the full view every rank holds (its owners and topology are read; the
// loads of processors outside this rank's scopes are not).
ScopedDecision decide_on_scope(UnitPlanBalancer& balancer, DecisionScope scope,
                               const LoadView& view, const RankLayout& ranks);

}  // namespace lbb
