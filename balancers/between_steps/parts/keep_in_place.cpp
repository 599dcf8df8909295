#include "balancers/between_steps/parts/keep_in_place.h"

#include <algorithm>
#include <numeric>
#include <span>
#include <tuple>
#include <vector>

namespace lbb {

void keep_parts_in_place(Owners& part, const LoadView& view) {
  if (view.owner.empty()) return;
  const std::span<const int> owner = view.owner;
  const std::span<const double> speed = view.speed;
  const int P = static_cast<int>(speed.size());
  std::vector<std::tuple<int, int, int>> overlap;  // (-modules, part, processor)
  std::vector<int> order(part.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return std::tie(part[a], owner[a]) < std::tie(part[b], owner[b]);
  });
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int m = order[i];
    if (speed[part[m]] != speed[owner[m]]) continue;
    if (overlap.empty() || std::get<1>(overlap.back()) != part[m] ||
        std::get<2>(overlap.back()) != owner[m])
      overlap.emplace_back(0, part[m], owner[m]);
    --std::get<0>(overlap.back());
  }
  std::sort(overlap.begin(), overlap.end());
  std::vector<int> to(P, -1);
  std::vector<char> taken(P, 0);
  for (auto [count, k, p] : overlap)
    if (to[k] < 0 && !taken[p]) to[k] = p, taken[p] = 1;
  for (int k = 0; k < P; ++k)
    for (int p = 0; to[k] < 0; ++p)
      if (!taken[p] && speed[p] == speed[k]) to[k] = p, taken[p] = 1;
  for (int& k : part) k = to[k];
}

}  // namespace lbb
