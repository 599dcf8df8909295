#pragma once
// Kendall's rank correlation tau-b (Kendall 1945's tie correction) of two paired samples: how
// often two orderings agree, from -1 (reversed) to 1 (the same). GSL has no Kendall tau (it has
// Spearman's), so this is the direct O(n^2) count over pairs, for the few strategies a group
// compares: tau_b = (C - D) / sqrt((C + D + Tx) (C + D + Ty)), C and D the concordant and
// discordant pairs, Tx (Ty) the pairs tied in x only (y only).
#include <optional>
#include <span>

namespace lbb {

// Empty when fewer than two pairs, or when either sample is all ties (tau undefined).
std::optional<double> kendall_tau_b(std::span<const double> x, std::span<const double> y);

}  // namespace lbb
