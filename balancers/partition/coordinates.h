#pragma once
// Module coordinates as the geometric partitioners read them: LoadView::coords, `dimensions`
// numbers per module (module-major), given by the workload (Workload::module_coords).
#include <cstddef>
#include <span>
#include <string_view>

#include "balancers/balancer.h"

namespace lbb {

// Throws std::invalid_argument, naming `method`, unless coords holds `dimensions` (>= 1) numbers
// for each of `modules` modules.
void check_coordinates(std::string_view method, std::size_t modules, std::span<const double> coords,
                       int dimensions);

// rib, mj and hsfc refuse a view without coordinates (a workload that gives none: synthetic
// costs, a trace without coords) rather than invent some; orb alone falls back to module order,
// as its paper's chain case. Throws std::invalid_argument saying so; else check_coordinates.
void require_coordinates(std::string_view method, const LoadView& view);

// Coordinate `axis` of `module`.
inline double coordinate(std::span<const double> coords, int dimensions, int module, int axis) {
  return coords[static_cast<std::size_t>(module) * dimensions + axis];
}

}  // namespace lbb
