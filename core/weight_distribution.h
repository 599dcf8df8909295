#pragma once
// Seeded draws of module weights, the synthetic cost model of Iqbal, Saltz & Bokhari 1986
// (truncated normal with unit mean before truncation). Shared by workload generators and the
// simulator so both draw the same instances from the same seed.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lbb {

enum class WeightDistribution { kTruncatedNormal, kUniform, kConstant };

std::optional<WeightDistribution> parse_weight_distribution(std::string_view name);
inline const std::vector<std::string>& weight_distribution_names() {
  static const std::vector<std::string> names = {"truncated_normal", "uniform", "constant"};
  return names;
}

// n weights with mean 1 before truncation: truncated normal N(1, sd) restricted to (0, inf),
// uniform on (0, 2), or all 1.
std::vector<double> draw_weights(WeightDistribution dist, int n, double sd, std::uint64_t seed);

}  // namespace lbb
