#include <gtest/gtest.h>

#include "core/topology.h"

namespace lbb {
namespace {

TEST(Topology, NeighbourCounts) {
  EXPECT_EQ(Topology(TopologyKind::kChain, 5).neighbours(0).size(), 1u);
  EXPECT_EQ(Topology(TopologyKind::kChain, 5).neighbours(2).size(), 2u);
  EXPECT_EQ(Topology(TopologyKind::kRing, 5).neighbours(0).size(), 2u);
  EXPECT_EQ(Topology(TopologyKind::kHypercube, 16).neighbours(3).size(), 4u);
  EXPECT_EQ(Topology(TopologyKind::kComplete, 6).neighbours(1).size(), 5u);
  Topology mesh(TopologyKind::kMesh2d, 12);
  EXPECT_EQ(mesh.mesh_rows(), 3);
  EXPECT_EQ(mesh.mesh_cols(), 4);
  EXPECT_EQ(mesh.neighbours(0).size(), 2u);
  EXPECT_EQ(mesh.neighbours(5).size(), 4u);
}

TEST(Topology, DistancesAgreeWithAdjacency) {
  for (auto kind : {TopologyKind::kChain, TopologyKind::kRing, TopologyKind::kMesh2d,
                    TopologyKind::kHypercube, TopologyKind::kComplete}) {
    Topology t(kind, 16);
    for (int a = 0; a < 16; ++a)
      for (int b = 0; b < 16; ++b) {
        EXPECT_EQ(t.adjacent(a, b), t.distance(a, b) == 1) << topology_name(kind);
        EXPECT_EQ(t.distance(a, b), t.distance(b, a));
      }
  }
  EXPECT_EQ(Topology(TopologyKind::kRing, 10).distance(0, 9), 1);
  EXPECT_EQ(Topology(TopologyKind::kMesh2d, 16).distance(0, 15), 6);
}

TEST(Topology, HypercubeNeedsPowerOfTwo) {
  EXPECT_TRUE(topology_size_error(TopologyKind::kHypercube, 12).has_value());
  EXPECT_FALSE(topology_size_error(TopologyKind::kHypercube, 8).has_value());
  EXPECT_THROW(Topology(TopologyKind::kHypercube, 6), std::invalid_argument);
}

}  // namespace
}  // namespace lbb
