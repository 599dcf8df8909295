#pragma once
// Graph partitioners (METIS, Scotch) take integer weights: the values scaled so the largest is
// 10^6, each at least 1, so a module of no cost still counts.
#include <algorithm>
#include <span>
#include <vector>

namespace lbb {

template <class Int>
std::vector<Int> integer_weights(std::span<const double> values) {
  const double most = values.empty() ? 0.0 : *std::max_element(values.begin(), values.end());
  std::vector<Int> w(values.size(), 1);
  if (most > 0)
    for (std::size_t m = 0; m < values.size(); ++m)
      w[m] = std::max<Int>(1, static_cast<Int>(values[m] / most * 1e6));
  return w;
}

}  // namespace lbb
