// The geometric partitioners (orb = RCB, rib, mj, hsfc), Scotch beside them, and the quality
// figures `lbbench partition` and the runs table report, on cases checked by hand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "balancers/balancer.h"
#include "balancers/partition/hsfc.h"
#include "balancers/partition/mj.h"
#include "balancers/partition/orb.h"
#include "balancers/partition/rib.h"
#include "balancers/partition/scotch.h"
#include "core/partition_quality.h"
#include "harness/cli/partition_command.h"

namespace lbb {
namespace {

// Cell centres of an nx x ny grid, x fastest: module x + nx * y at (x + 0.5, y + 0.5).
std::vector<double> grid(int nx, int ny) {
  std::vector<double> c;
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) c.insert(c.end(), {x + 0.5, y + 0.5});
  return c;
}

// Owners of a 4x4 grid's quadrants in the order lower left, lower right, upper left, upper right
// as processor numbers p0..p3.
Owners quadrants(int p0, int p1, int p2, int p3) {
  Owners o(16);
  for (int m = 0; m < 16; ++m) {
    const bool right = m % 4 >= 2, up = m / 4 >= 2;
    o[m] = up ? (right ? p3 : p2) : (right ? p1 : p0);
  }
  return o;
}

const std::vector<double> kOnes16(16, 1.0), kFour(4, 1.0);

TEST(GeometricPartition, RcbCutsA4x4GridIntoQuadrants) {
  // First cut across x (the box is square: the lowest axis), then each half across y.
  EXPECT_EQ(orb_partition(kOnes16, kFour, grid(4, 4), 2), quadrants(0, 2, 1, 3));
  EXPECT_EQ(orb_partition(kOnes16, kFour, grid(4, 4), 2, true), quadrants(0, 2, 1, 3));
}

TEST(GeometricPartition, RectilinearKeepsAColumnTogether) {
  // 3 columns of 2 cells, 2 processors: the even cut takes 3 cells, splitting the middle column;
  // rectilinear moves the whole column to one side (either leaves loads 4 and 2).
  const std::vector<double> ones(6, 1.0), two(2, 1.0);
  const std::vector<double> c = {0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1};  // x fastest, 3 x 2
  const Owners plain = orb_partition(ones, two, c, 2);
  EXPECT_NE(plain[1], plain[4]);  // the middle column (modules 1 and 4) split
  const Owners boxes = orb_partition(ones, two, c, 2, true);
  EXPECT_EQ(boxes[1], boxes[4]);
  EXPECT_EQ(boxes[0], boxes[3]);
  EXPECT_EQ(boxes[2], boxes[5]);
  EXPECT_NE(boxes[0], boxes[2]);
}

TEST(GeometricPartition, RibCutsAcrossThePrincipalAxis) {
  // 8 points on the diagonal y = x, and a second row beside them: the axis of inertia is the
  // diagonal, so the cut takes the 4 lowest along it; an axis-parallel cut by x would too, but
  // the points' order along the diagonal differs from x alone for the offset row.
  std::vector<double> c;
  for (int i = 0; i < 8; ++i) c.insert(c.end(), {double(i), double(i)});
  const std::vector<double> ones(8, 1.0), two(2, 1.0);
  EXPECT_EQ(rib_partition(ones, two, c, 2), (Owners{0, 0, 0, 0, 1, 1, 1, 1}));
  // A long thin box along y (2 x 8 cells): the first cut is across y, at y = 4.
  const Owners tall = rib_partition(kOnes16, std::vector<double>(2, 1.0), grid(2, 8), 2);
  for (int m = 0; m < 16; ++m) EXPECT_EQ(tall[m], m / 2 >= 4 ? 1 : 0) << m;
  // The square grid: no preferred axis; x first, then each 2 x 4 half across y.
  EXPECT_EQ(rib_partition(kOnes16, kFour, grid(4, 4), 2), quadrants(0, 2, 1, 3));
}

TEST(GeometricPartition, RibFollowsARotatedCloud) {
  // Points along the anti-diagonal x + y = 7, far from axis-parallel: RIB's halves are its ends.
  std::vector<double> c;
  for (int i = 0; i < 8; ++i) c.insert(c.end(), {double(i), 7.0 - i});
  const std::vector<double> ones(8, 1.0), two(2, 1.0);
  const Owners o = rib_partition(ones, two, c, 2);
  for (int i = 1; i < 4; ++i) EXPECT_EQ(o[i], o[0]) << i;
  for (int i = 4; i < 8; ++i) EXPECT_NE(o[i], o[0]) << i;
}

TEST(GeometricPartition, HilbertOrderOfA2x2Grid) {
  // Cells (0,0), (1,0), (0,1), (1,1) as modules 0-3: the curve goes up first, then right, down.
  EXPECT_EQ(hilbert_order(grid(2, 2), 2), (std::vector<int>{0, 2, 3, 1}));
  const std::uint32_t a[] = {0, 0}, b[] = {0, 1}, c[] = {1, 1}, d[] = {1, 0};
  EXPECT_EQ(hilbert_index(a, 1), 0u);
  EXPECT_EQ(hilbert_index(b, 1), 1u);
  EXPECT_EQ(hilbert_index(c, 1), 2u);
  EXPECT_EQ(hilbert_index(d, 1), 3u);
}

TEST(GeometricPartition, HilbertCurveStepsToAFaceNeighbour) {
  // The defining property: consecutive cells along the curve share a face, in 2-D and 3-D.
  for (int d : {2, 3}) {
    const int side = d == 2 ? 16 : 8, bits = d == 2 ? 4 : 3, cells = d == 2 ? 256 : 512;
    std::vector<std::array<int, 3>> at(cells);
    std::set<std::uint64_t> seen;
    for (int m = 0; m < cells; ++m) {
      std::uint32_t x[3] = {std::uint32_t(m % side), std::uint32_t(m / side % side),
                            std::uint32_t(m / side / side)};
      const std::uint64_t h = hilbert_index(std::span(x, d), bits);
      ASSERT_LT(h, std::uint64_t(cells));
      seen.insert(h);
      at[h] = {int(x[0]), int(x[1]), int(x[2])};
    }
    EXPECT_EQ(seen.size(), std::size_t(cells));
    for (int h = 1; h < cells; ++h) {
      int distance = 0;
      for (int k = 0; k < 3; ++k) distance += std::abs(at[h][k] - at[h - 1][k]);
      EXPECT_EQ(distance, 1) << "d " << d << " step " << h;
    }
  }
}

TEST(GeometricPartition, HsfcCutsTheCurveIntoContiguousPieces) {
  // 4x4 grid, 4 processors: the curve's quarters are the quadrants, visited lower left, upper
  // left, upper right, lower right.
  EXPECT_EQ(hsfc_partition(kOnes16, kFour, grid(4, 4), 2), quadrants(0, 3, 1, 2));
}

TEST(GeometricPartition, MjPartsAndJaggedCuts) {
  EXPECT_EQ(mj_parts(4, 2), (std::vector<int>{2, 2}));
  EXPECT_EQ(mj_parts(8, 2), (std::vector<int>{4, 2}));
  EXPECT_EQ(mj_parts(7, 2), (std::vector<int>{7, 1}));
  EXPECT_EQ(mj_parts(8, 3), (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(mj_parts(5, 1), (std::vector<int>{5}));
  EXPECT_EQ(mj_partition(kOnes16, kFour, grid(4, 4), 2), quadrants(0, 2, 1, 3));
  // Four slabs along x: the grid's columns.
  const Owners columns = mj_partition(kOnes16, kFour, grid(4, 4), 2, {4, 1});
  for (int m = 0; m < 16; ++m) EXPECT_EQ(columns[m], m % 4) << m;
  // Jagged: 2 columns of 4 cells; column 0 heavy at the bottom, column 1 at the top, so each
  // column's own cut along y lies elsewhere (loads 3 everywhere).
  const std::vector<double> w = {3, 1, 1, 1, 1, 1, 1, 3};  // modules x + 2y
  const Owners o = mj_partition(w, kFour, grid(2, 4), 2, {2, 2});
  EXPECT_EQ(o, (Owners{0, 2, 1, 2, 1, 2, 1, 3}));
  EXPECT_THROW(mj_partition(kOnes16, kFour, grid(4, 4), 2, {3, 1}), std::invalid_argument);
}

TEST(GeometricPartition, WithoutCoordinatesOnlyOrbFallsBack) {
  LoadView view;
  view.cost = kOnes16;
  view.speed = kFour;
  for (const char* name : {"rib", "mj", "hsfc"}) {
    try {
      make_balancer(name, {})->decide(view);
      ADD_FAILURE() << name << " decided without coordinates";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("geometric partitioner"), std::string::npos) << name;
    }
  }
  // orb: the module index is the one coordinate, 4 runs of 4.
  const Decision d = make_balancer("orb", {})->decide(view);
  for (int m = 0; m < 16; ++m) EXPECT_EQ(d.owner[m], m / 4);
}

TEST(PartitionQuality, ByHandOnAGridAndAStar) {
  const std::vector<int> extents = {2, 2};
  const ModuleGraph square = ModuleGraph::grid(extents);  // links 0-1, 0-2, 1-3, 2-3
  const std::vector<double> ones(4, 1.0);
  const PartitionQuality q = partition_quality(Owners{0, 0, 1, 1}, ones, {{1.0, 1.0}}, &square);
  EXPECT_EQ(q.edge_cut, 2);              // 0-2 and 1-3
  EXPECT_EQ(q.communication_volume, 4);  // each module has one neighbour on the other processor
  EXPECT_DOUBLE_EQ(q.imbalance, 1.0);
  // A star: centre 0 on processor 0, leaves 1, 2 on processor 1, leaf 3 on processor 2.
  const ModuleGraph star({{1, 2, 3}, {0}, {0}, {0}});
  const PartitionQuality s = partition_quality(Owners{0, 1, 1, 2}, ones, {{1.0, 1.0, 1.0}}, &star);
  EXPECT_EQ(s.edge_cut, 3);
  EXPECT_EQ(s.communication_volume, 5);  // the centre reaches 2 processors, each leaf 1
  EXPECT_DOUBLE_EQ(s.imbalance, 2 / (4.0 / 3));
  // Loads 3 and 1 at speeds 3 and 1: each exactly its share.
  EXPECT_DOUBLE_EQ(partition_quality(Owners{0, 0, 0, 1}, ones, {{3.0, 1.0}}, nullptr).imbalance,
                   1.0);
  EXPECT_DOUBLE_EQ(partition_quality(Owners{0, 0, 0, 1}, ones, {{1.0, 1.0}}, nullptr).imbalance,
                   1.5);
  EXPECT_EQ(partition_quality(Owners{0, 0, 0, 1}, ones, {{1.0, 1.0}}, nullptr).edge_cut, -1);
}

TEST(ScotchPartition, MapsA4x4GridInBalance) {
  const std::vector<int> extents = {4, 4};
  const ModuleGraph g = ModuleGraph::grid(extents);
  LoadView view;
  view.cost = kOnes16;
  view.speed = kFour;
  view.communication = &g;
  const Owners o = scotch_owners(view, 1.05, 1);
  std::vector<int> count(4, 0);
  for (int p : o) ++count[p];
  EXPECT_EQ(count, (std::vector<int>{4, 4, 4, 4}));  // 5 % of 4 cells allows no other
  const PartitionQuality q = partition_quality(o, kOnes16, kFour, &g);
  EXPECT_LE(q.edge_cut, 12);                   // strips cut 12 links, quadrants 8
  EXPECT_EQ(scotch_owners(view, 1.05, 1), o);  // the same mapping again
  // A processor 3 times as fast takes about half of the cells.
  const std::vector<double> fast = {1, 1, 1, 3};
  view.speed = fast;
  std::vector<int> share(4, 0);
  for (int p : scotch_owners(view, 1.05, 1)) ++share[p];
  EXPECT_GE(share[3], 7);
}

TEST(PartitionCommand, EveryPartitionerPrintsItsQuality) {
  // The 4x4 grid's quadrants cut 8 links; each quadrant's 4 cells reach 2 + 1 + 1 + 0 others.
  for (const char* m : {"orb", "rib", "mj", "hsfc"}) {
    const nlohmann::json q = run_partition({m, 4, {}, {}, {4, 4}}, kOnes16);
    EXPECT_EQ(q["edge_cut"], 8) << m;
    EXPECT_EQ(q["communication_volume"], 16) << m;
    EXPECT_EQ(q["imbalance"], 1.0) << m;
  }
  // Every static partitioner that needs no file, on a chain and on a grid.
  for (const BalancerInfo& info : balancer_registry()) {
    if (info.kind() != BalancerKind::kStatic || info.name == "prescribed" ||
        info.name == "plugin" || info.name == "python")
      continue;
    const nlohmann::json q = run_partition({info.name, 4, {}, {}, {4, 4}}, kOnes16);
    EXPECT_GE(q["edge_cut"].get<int>(), 3) << info.name;  // 4 parts of a connected graph
    EXPECT_GE(q["communication_volume"].get<int>(), q["edge_cut"].get<int>()) << info.name;
    EXPECT_GE(q["imbalance"].get<double>(), 1.0) << info.name;
  }
  // block on a chain of 8 into 2: one link cut, both its ends send.
  const nlohmann::json chain = run_partition({"block", 2, {}, {}, {}}, std::vector<double>(8, 1));
  EXPECT_EQ(chain["edge_cut"], 1);
  EXPECT_EQ(chain["communication_volume"], 2);
  EXPECT_THROW(run_partition({"rib", 4, {}, {}, {}}, kOnes16), PartitionInputError);
  EXPECT_THROW(run_partition({"rib", 4, {}, {}, {4, 3}}, kOnes16), PartitionInputError);
}

}  // namespace
}  // namespace lbb
