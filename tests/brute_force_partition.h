#pragma once
// Exhaustive optima for small instances, the yardstick of the partitioner tests.
#include <algorithm>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "balancers/partition/chain_probe.h"
#include "core/assignment.h"

namespace lbb::testing {

// The least bottleneck over every contiguous partition (empty parts allowed) of the chain,
// loads computed as the partitioners compute them (ChainLoads::load). O(C(m+P-1, P-1) P).
inline double brute_force_chain(std::span<const double> weights, std::span<const double> speeds) {
  const ChainLoads loads(weights, speeds);
  const int m = loads.modules();
  const int p = loads.processors();
  std::vector<int> first(p + 1, 0);
  first[p] = m;
  double best = std::numeric_limits<double>::infinity();
  std::function<void(int)> place = [&](int k) {  // choose first[k] >= first[k - 1]
    if (k == p) {
      best = std::min(best, loads.bottleneck(first));
      return;
    }
    for (int s = first[k - 1]; s <= m; ++s) {
      first[k] = s;
      place(k + 1);
    }
  };
  place(1);
  return best;
}

// The least bottleneck over all P^m assignments, contiguous or not (loads as core computes them).
inline double brute_force_any(std::span<const double> weights, std::span<const double> speeds) {
  const int m = static_cast<int>(weights.size());
  const int p = static_cast<int>(speeds.size());
  Owners owner(m, 0);
  double best = std::numeric_limits<double>::infinity();
  while (true) {
    best = std::min(best, bottleneck(owner, weights, speeds));
    int i = 0;
    while (i < m && ++owner[i] == p) owner[i++] = 0;
    if (i == m) return best;
  }
}

}  // namespace lbb::testing
