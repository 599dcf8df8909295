#include "harness/base/load_model.h"

#include <algorithm>
#include <stdexcept>

namespace lbb {

const std::vector<std::string>& load_model_names() {
  static const std::vector<std::string> names = {"last", "persistence", "moving_average", "linear"};
  return names;
}

std::string_view load_model_name(LoadModelKind kind) {
  return load_model_names()[static_cast<std::size_t>(kind)];
}

LoadModelKind parse_load_model(std::string_view name) {
  const auto& names = load_model_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    throw std::invalid_argument("unknown load model '" + std::string(name) + "'");
  return static_cast<LoadModelKind>(it - names.begin());
}

LoadModel::LoadModel(LoadModelSpec spec, int modules)
    : spec_(spec), predicted_(static_cast<std::size_t>(modules), 0.0) {
  if (spec_.kind == LoadModelKind::kLast) spec_.window = 1;
  if (spec_.window < 1) throw std::invalid_argument("a load model reads one step at least");
  history_.assign(static_cast<std::size_t>(spec_.window), predicted_);
}

std::span<const double> LoadModel::observe(std::span<const double> cost) {
  if (spec_.kind == LoadModelKind::kLast) return cost;
  if (cost.size() != predicted_.size()) throw std::invalid_argument("costs != modules");
  std::copy(cost.begin(), cost.end(), history_[observed_ % spec_.window].begin());
  ++observed_;
  for (std::size_t m = 0; m < predicted_.size(); ++m) predicted_[m] = predict(static_cast<int>(m));
  return predicted_;
}

// Module m's next cost from its last n = min(window, observed) costs y_0 (oldest) .. y_{n-1}.
double LoadModel::predict(int m) const {
  const int n = std::min(spec_.window, observed_);
  std::vector<double> y(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) y[k] = history_[(observed_ - n + k) % spec_.window][m];
  if (spec_.kind == LoadModelKind::kPersistence) {
    std::sort(y.begin(), y.end());
    return n % 2 ? y[n / 2] : (y[n / 2 - 1] + y[n / 2]) / 2;
  }
  double sy = 0;
  for (double v : y) sy += v;
  if (spec_.kind == LoadModelKind::kMovingAverage || n == 1) return sy / n;
  // Least squares through (k, y_k), k = 0 .. n-1, evaluated at k = n (the next step).
  const double mean_x = (n - 1) / 2.0, mean_y = sy / n;
  double sxy = 0, sxx = 0;
  for (int k = 0; k < n; ++k) {
    sxy += (k - mean_x) * (y[k] - mean_y);
    sxx += (k - mean_x) * (k - mean_x);
  }
  return std::max(0.0, mean_y + sxy / sxx * (n - mean_x));
}

}  // namespace lbb
