#include "core/weight_distribution.h"

#include <random>

namespace lbb {

std::optional<WeightDistribution> parse_weight_distribution(std::string_view name) {
  if (name == "truncated_normal") return WeightDistribution::kTruncatedNormal;
  if (name == "uniform") return WeightDistribution::kUniform;
  if (name == "constant") return WeightDistribution::kConstant;
  return std::nullopt;
}

std::vector<double> draw_weights(WeightDistribution dist, int n, double sd, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> w(n, 1.0);
  switch (dist) {
    case WeightDistribution::kTruncatedNormal: {
      if (sd <= 0.0) break;  // a zero-width normal is the constant 1
      std::normal_distribution<double> normal(1.0, sd);
      for (auto& x : w) {
        do x = normal(rng);
        while (x <= 0.0);  // truncation by rejection keeps the shape above zero exactly
      }
      break;
    }
    case WeightDistribution::kUniform: {
      std::uniform_real_distribution<double> uniform(0.0, 2.0);
      for (auto& x : w) {
        do x = uniform(rng);
        while (x <= 0.0);
      }
      break;
    }
    case WeightDistribution::kConstant:
      break;
  }
  return w;
}

}  // namespace lbb
