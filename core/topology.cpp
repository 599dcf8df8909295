#include "core/topology.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace lbb {

std::optional<TopologyKind> parse_topology(std::string_view name) {
  if (name == "chain") return TopologyKind::kChain;
  if (name == "ring") return TopologyKind::kRing;
  if (name == "mesh2d") return TopologyKind::kMesh2d;
  if (name == "hypercube") return TopologyKind::kHypercube;
  if (name == "complete") return TopologyKind::kComplete;
  return std::nullopt;
}

std::string_view topology_name(TopologyKind kind) {
  switch (kind) {
    case TopologyKind::kChain:
      return "chain";
    case TopologyKind::kRing:
      return "ring";
    case TopologyKind::kMesh2d:
      return "mesh2d";
    case TopologyKind::kHypercube:
      return "hypercube";
    case TopologyKind::kComplete:
      return "complete";
  }
  return "?";
}

std::optional<std::string> topology_size_error(TopologyKind kind, int processors) {
  if (processors < 1) return "needs at least one processor";
  if (kind == TopologyKind::kHypercube && !std::has_single_bit(static_cast<unsigned>(processors)))
    return "a hypercube needs a power-of-two number of processors, got " +
           std::to_string(processors);
  return std::nullopt;
}

Topology::Topology(TopologyKind kind, int processors) : kind_(kind), processors_(processors) {
  if (auto err = topology_size_error(kind, processors)) throw std::invalid_argument(*err);
  neighbours_.resize(processors);
  auto link = [&](int a, int b) {
    if (a == b) return;
    auto& na = neighbours_[a];
    if (std::find(na.begin(), na.end(), b) == na.end()) na.push_back(b);
    auto& nb = neighbours_[b];
    if (std::find(nb.begin(), nb.end(), a) == nb.end()) nb.push_back(a);
  };
  const int p = processors;
  switch (kind) {
    case TopologyKind::kChain:
      for (int i = 0; i + 1 < p; ++i) link(i, i + 1);
      break;
    case TopologyKind::kRing:
      for (int i = 0; i < p; ++i) link(i, (i + 1) % p);
      break;
    case TopologyKind::kMesh2d: {
      rows_ = static_cast<int>(std::sqrt(static_cast<double>(p)));
      while (p % rows_ != 0) --rows_;
      cols_ = p / rows_;
      for (int r = 0; r < rows_; ++r)
        for (int c = 0; c < cols_; ++c) {
          int id = r * cols_ + c;
          if (c + 1 < cols_) link(id, id + 1);
          if (r + 1 < rows_) link(id, id + cols_);
        }
      break;
    }
    case TopologyKind::kHypercube:
      for (int i = 0; i < p; ++i)
        for (int bit = 1; bit < p; bit <<= 1) link(i, i ^ bit);
      break;
    case TopologyKind::kComplete:
      for (int i = 0; i < p; ++i)
        for (int j = i + 1; j < p; ++j) link(i, j);
      break;
  }
  for (auto& n : neighbours_) std::sort(n.begin(), n.end());
}

bool Topology::adjacent(int a, int b) const {
  const auto& n = neighbours_[a];
  return std::binary_search(n.begin(), n.end(), b);
}

int Topology::distance(int a, int b) const {
  if (a == b) return 0;
  switch (kind_) {
    case TopologyKind::kChain:
      return std::abs(a - b);
    case TopologyKind::kRing: {
      int d = std::abs(a - b);
      return std::min(d, processors_ - d);
    }
    case TopologyKind::kMesh2d:
      return std::abs(a / cols_ - b / cols_) + std::abs(a % cols_ - b % cols_);
    case TopologyKind::kHypercube:
      return std::popcount(static_cast<unsigned>(a ^ b));
    case TopologyKind::kComplete:
      return 1;
  }
  return 0;
}

}  // namespace lbb
