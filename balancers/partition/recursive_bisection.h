#pragma once
// The recursion that orb (Berger & Bokhari 1987) and rib (Simon 1991) share: order the modules
// along a direction, cut them so each side's share of the cost matches its share of processor
// speed, and cut each side again, until every processor has its part. They differ only in the
// direction of each cut.
#include <functional>
#include <span>

#include "core/assignment.h"

namespace lbb {

// A module as a cut sees it: its key along the cut's direction, its weight and its index.
struct BisectionItem {
  double key;
  double weight;
  int module;
};

// Writes the key of every module of one side (the modules of one recursive call).
using BisectionKeys = std::function<void(std::span<BisectionItem>)>;

// rectilinear: no two modules of equal key on the two sides of a cut (Zoltan2's `rectilinear`
// option: a cut is a plane, whole rows of a grid go one way); the cut moves to the nearer side of
// the tied modules. Checks the input (check_partition_input).
Owners recursive_bisection(std::span<const double> weights, std::span<const double> speeds,
                           const BisectionKeys& keys, bool rectilinear = false);

}  // namespace lbb
