#include "balancers/partition/coordinates.h"

#include <stdexcept>
#include <string>

namespace lbb {

void check_coordinates(std::string_view method, std::size_t modules, std::span<const double> coords,
                       int dimensions) {
  if (modules == 0) return;
  if (dimensions < 1 || coords.size() != modules * static_cast<std::size_t>(dimensions))
    throw std::invalid_argument(std::string(method) + ": " + std::to_string(coords.size()) +
                                " coordinates for " + std::to_string(modules) + " modules in " +
                                std::to_string(dimensions) + " dimensions");
}

void require_coordinates(std::string_view method, const LoadView& view) {
  if (view.coords.empty() && view.modules() > 0)
    throw std::invalid_argument(
        std::string(method) +
        " is a geometric partitioner and these modules have no "
        "coordinates (the workload gives none); use orb, which falls back to module order, or a "
        "non-geometric partitioner");
  check_coordinates(method, view.cost.size(), view.coords, view.dimensions);
}

}  // namespace lbb
