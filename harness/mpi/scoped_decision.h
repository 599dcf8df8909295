#pragma once
// Decisions across ranks of the balancers whose processors or groups read only their scope
// (Balancer::scope()), with the messages their papers have: each rank receives only the loads its
// processors' or groups' decisions read, decides its part on a view where every other load is
// poisoned, and the outcome reaches every rank (the migration notices: every rank keeps every
// owner). docs/engine.md, "Across processes", has the table of patterns.
#include "balancers/between_steps/multilevel.h"
#include "harness/mpi/rank_exchange.h"

namespace lbb {

struct ScopedDecision {
  Decision decision;  // the same on every rank
  Traffic traffic;    // this rank's sends: loads, the total's reduction, its transfers or owners
};

// A unit-plan balancer whose processors decide their own transfers (DecisionScope::kNeighbours,
// kOwnAndTotal: Franklin & Govindan 1995's random and diffusion): each rank receives, point to
// point, the unit loads of the other ranks' processors that its processors read, or the sum of
// all loads in one reduction (kOwnAndTotal); it plans its processors' transfers on a view where
// every other load is kUnreadLoad; the transfers go to every rank, and every rank realises them
// alike. Collective. `view`: the full view every rank holds (its owners, costs and topology are
// read to measure and realise; the loads outside this rank's scopes are not planned on).
ScopedDecision decide_on_scope(UnitPlanBalancer& balancer, DecisionScope scope,
                               const LoadView& view, const RankLayout& ranks);

// A scheme that decides each group of sync_trigger().group_size consecutive processors on the
// group's loads alone (DecisionScope::kGroup: Zaki, Li & Parthasarathy 1997's LCDLB, LDDLB):
// each rank sends its processors' busy times to the group's other deciding ranks, point to point
// (the rank of the group's first processor for LCDLB, all-to-one; every rank of the group for
// LDDLB, all-to-all); each decides its groups on a view where every other processor's busy time
// and module costs are poisoned (kUnreadSeconds); the rank of a group's first processor sends the
// group's new owners to every rank, and the group's other deciders check they decided the same.
// Collective. `own_busy`: this rank's processors' busy times, in processor order.
ScopedDecision decide_in_groups(Balancer& balancer, const LoadView& view,
                                std::span<const double> own_busy, const RankLayout& ranks);

// Horton 1993's multilevel scheme (DecisionScope::kTree), level by level as its processors would
// carry it out (balancers/between_steps/parts/bisection_tree.h): up the tree, each node's host
// receives its right child's load sum from the right child's host, one round per depth (point to
// point, bundled per pair of ranks); down the tree, each host decides its node's cut on its halves'
// sums and its inherited transfers and sends the right half's inheritance to that half's host (a
// half of one processor needs none); then each rank sends its cuts' transfers to every rank, and
// every rank realises the plan alike. Reads no load but its own processors'. Collective.
ScopedDecision decide_by_levels(MultilevelDiffusion& balancer, const LoadView& view,
                                const RankLayout& ranks);

}  // namespace lbb
