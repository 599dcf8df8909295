#pragma once
// What the balancers that reassign modules one by one (greedy, greedy_refine, refine, metis,
// scotch, gossip) share: where they start from and the decision their result makes.
#include <span>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

// The view's owners; block before the first step.
Owners starting_owners(const LoadView& view);

// `after` as a decision: the predicted makespans of `before` and `after`. It acts when the owners
// change and, for min_gain > 0, the predicted makespan falls below (1 - min_gain) x its current
// value (unit_plan_balancer.h's guard against moves that do not pay, and against thrashing);
// always before the first step (the view has no owners yet).
Decision reassignment(const LoadView& view, std::span<const int> before, Owners after,
                      double min_gain = 0);

}  // namespace lbb
