#pragma once
#include <vector>

#include "core/topology.h"

namespace lbb {

// An order of all processors in which consecutive ones are neighbours (a Hamiltonian path of the
// topology): index order on a chain, ring or complete graph, a snake through the rows of a mesh,
// the Gray code on a hypercube. Every contiguous range of it is connected, so halving ranges
// bisects the processor set along the graph (Horton 1993, Algorithm 2).
std::vector<int> processor_path(const Topology& topology);

}  // namespace lbb
