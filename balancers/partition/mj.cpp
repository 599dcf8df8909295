#include "balancers/partition/mj.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "balancers/partition/coordinates.h"
#include "balancers/partition/optimal_chain.h"
#include "balancers/partition/partition_input.h"

namespace lbb {

std::vector<int> mj_parts(int processors, int dimensions) {
  std::vector<int> parts;
  int rest = processors;
  for (int level = 0; level < dimensions; ++level) {
    const int left = dimensions - level;
    int k = rest;
    if (left > 1) {  // the smallest divisor of rest at or above its left-th root
      k = std::max(1, static_cast<int>(std::ceil(std::pow(rest, 1.0 / left) - 1e-9)));
      while (rest % k != 0) ++k;
    }
    parts.push_back(k);
    rest /= k;
  }
  return parts;
}

namespace {

struct Jagged {
  std::span<const double> weights, speeds, coords;
  int d;
  std::span<const int> parts;
  Owners& owner;

  // Gives `modules` to the processors [proc, proc + count), cutting at `level`.
  void cut(std::vector<int> modules, int level, int proc, int count) {
    if (count == 1 || level == static_cast<int>(parts.size())) {
      for (int m : modules) owner[m] = proc;
      return;
    }
    const int axis = level % d;
    std::sort(modules.begin(), modules.end(), [&](int a, int b) {
      const double x = coordinate(coords, d, a, axis), y = coordinate(coords, d, b, axis);
      return x < y || (x == y && a < b);
    });
    const int k = parts[level];
    std::vector<int> first(k + 1, proc);  // slab j's processors: [first[j], first[j + 1])
    std::vector<double> group_speed(k, 0.0);
    for (int j = 0; j < k; ++j) {
      first[j + 1] = first[j] + count / k + (j < count % k ? 1 : 0);
      for (int p = first[j]; p < first[j + 1]; ++p) group_speed[j] += speeds[p];
    }
    std::vector<double> along(modules.size());
    for (std::size_t i = 0; i < modules.size(); ++i) along[i] = weights[modules[i]];
    const Owners slab = chain_owners(optimal_chain(along, group_speed));
    std::vector<std::vector<int>> of(k);
    for (std::size_t i = 0; i < modules.size(); ++i) of[slab[i]].push_back(modules[i]);
    for (int j = 0; j < k; ++j) cut(std::move(of[j]), level + 1, first[j], first[j + 1] - first[j]);
  }
};

}  // namespace

Owners mj_partition(std::span<const double> weights, std::span<const double> speeds,
                    std::span<const double> coords, int dimensions, std::vector<int> parts) {
  check_partition_input(weights, speeds);
  check_coordinates("mj", weights.size(), coords, dimensions);
  const int P = static_cast<int>(speeds.size());
  if (parts.empty()) parts = mj_parts(P, std::max(dimensions, 1));
  long long product = 1;
  for (int k : parts) product *= std::max(k, 0);
  if (product != P)
    throw std::invalid_argument("mj: parts multiply to " + std::to_string(product) + ", not the " +
                                std::to_string(P) + " processors");
  Owners owner(weights.size(), 0);
  std::vector<int> all(weights.size());
  std::iota(all.begin(), all.end(), 0);
  Jagged{weights, speeds, coords, std::max(dimensions, 1), parts, owner}.cut(std::move(all), 0, 0,
                                                                             P);
  return owner;
}

BalancerInfo MjPartition::info() {
  return {"mj",
          BalancerRole::kPartition,
          "multi-jagged: slabs along each coordinate in turn, each slab cut on its own, by cost "
          "and speed (Deveci, Rajamanickam, Devine & Catalyurek 2016)",
          {reals_param("parts", {},
                       "parts per level, level l cutting along coordinate l mod d, their product "
                       "P (empty: P's factors as even as possible, one level per coordinate)")},
          [](const Params& p) {
            std::vector<int> parts;
            for (double k : p.reals("parts"))
              if (k < 1 || k != std::floor(k) || k > 1 << 20)
                throw ParamError("parts", "parts must be whole numbers from 1 to 2^20");
              else
                parts.push_back(static_cast<int>(k));
            return std::make_unique<MjPartition>(std::move(parts));
          },
          {.needs_coordinates = true}};
}

Decision MjPartition::decide(const LoadView& view) {
  require_coordinates("mj", view);
  return {true, mj_partition(view.cost, view.speed, view.coords, view.dimensions, parts_), 1};
}

}  // namespace lbb
