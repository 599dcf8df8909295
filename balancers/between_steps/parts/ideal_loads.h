#pragma once
// The ideal loads of Franklin & Govindan 1995: global (eq. 5, balanced_loads in transfer_plan.h)
// and local, from a processor's 1-step neighbourhood only (eq. 6).
#include <cstdint>
#include <span>
#include <vector>

#include "core/topology.h"

namespace lbb {

// w~_i = C_i / (C_i + sum_{j in N_i} C_j) * (w_i + sum_{j in N_i} w_j)   (eq. 6)
std::vector<double> local_ideal_loads(std::span<const std::int64_t> loads,
                                      std::span<const double> speed, const Topology& topology);

}  // namespace lbb
