#pragma once
// Plummer-model initial conditions for star-cluster N-body runs (Aarseth, Henon & Wielen 1974),
// in standard units G = M = 1, E = -1/4. No threads, no balancing.
#include <cstdint>
#include <span>

namespace lbb::kernels {

// Draws pos.size() / dims bodies of mass 1 / n: pos and vel hold dims values per body, mass
// one. dims = 3 is the Plummer sphere; dims = 2 is its projection onto the x-y plane (positions
// and velocities), the 2-D cluster of Franklin & Govindan 1995, section 4. Centre of mass at
// rest at the origin. The same seed gives the same bodies.
void plummer_model(int dims, std::uint64_t seed, std::span<double> pos, std::span<double> vel,
                   std::span<double> mass);

}  // namespace lbb::kernels
