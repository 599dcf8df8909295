#pragma once
// Which row of a group of strategies wins, and which cannot be told apart from the winner.
#include <span>
#include <vector>

namespace lbb::stats {

// The best row (smallest median among the eligible ones) is compared with every other eligible
// row by a two-sided Mann-Whitney U test; the group's p-values are adjusted by Holm's step-down
// rule (Holm 1979), so that the chance of calling any of the group's differences significant
// when there is none stays at most alpha. The best is starred when every comparison is
// significant; a row whose comparison is not is tied with the best.
struct GroupVerdict {
  int best = -1;                   // -1: no eligible row
  bool starred = false;            // best beats every other eligible row significantly
  std::vector<bool> tied;          // per row: not significantly different from the best
  std::vector<double> p_adjusted;  // per row: Holm-adjusted p against the best (1 for the best)
};

GroupVerdict judge_group(const std::vector<std::span<const double>>& samples,
                         const std::vector<bool>& eligible, double alpha = 0.05);

// Holm's adjusted p-values, in the order given.
std::vector<double> holm_adjust(const std::vector<double>& p);

}  // namespace lbb::stats
