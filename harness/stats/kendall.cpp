#include "harness/stats/kendall.h"

#include <cmath>
#include <stdexcept>

namespace lbb {

std::optional<double> kendall_tau_b(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size()) throw std::invalid_argument("kendall_tau_b: samples differ in size");
  double concordant = 0, discordant = 0, tied_x = 0, tied_y = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = i + 1; j < x.size(); ++j) {
      const double dx = x[i] - x[j], dy = y[i] - y[j];
      if (dx == 0 && dy == 0) continue;  // tied in both: in neither count
      if (dx == 0)
        ++tied_x;
      else if (dy == 0)
        ++tied_y;
      else if ((dx > 0) == (dy > 0))
        ++concordant;
      else
        ++discordant;
    }
  const double nx = concordant + discordant + tied_y, ny = concordant + discordant + tied_x;
  if (nx == 0 || ny == 0) return std::nullopt;
  return (concordant - discordant) / std::sqrt(nx * ny);
}

}  // namespace lbb
