#pragma once
// The Barnes-Hut hierarchical force calculation (Barnes & Hut 1986): bodies sorted into a
// quadtree (2-D) or octree (3-D); a body sees a distant cell as one mass at the cell's centre of
// mass. Direct summation over the same bodies is the reference. Gravity with G = 1 and Plummer
// softening eps: a = sum m (x_j - x) / (|x_j - x|^2 + eps^2)^{3/2}. No threads, no balancing.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace lbb::kernels {

struct TreeCell {
  double com[3];  // centre of mass
  double mass;
  double open2;        // a body closer to com than sqrt(open2) opens the cell
  std::int32_t next;   // the cell after this subtree in depth-first order (cells.size(): none)
  std::int32_t first;  // leaf: its first body; internal cell: -1 (its first child is this + 1)
  std::int32_t count;  // bodies in the subtree
  std::int32_t begin;  // the first body of the subtree (bodies [begin, begin + count))
};

// The tree and its bodies, re-ordered along the tree (structure of arrays; z empty in 2-D).
struct BodyTree {
  int dims = 3;
  double theta = 0.5;
  std::vector<TreeCell> cells;
  std::vector<double> x, y, z, m;
  std::vector<std::int64_t> id;     // body ids, for skipping a body's own contribution
  std::vector<std::int32_t> order;  // order[k]: index in the build input of tree body k
  int bodies() const { return static_cast<int>(m.size()); }
};

// Builds the tree of n bodies: pos holds dims values per body, mass and id one each. A cell is
// opened when a body is within size / theta + |com - centre| of its centre of mass (Salmon &
// Warren 1994: the offset term guards against a distant-looking centre of mass in a large cell);
// cells with at most leaf_size bodies are leaves. theta must be below 2 / sqrt(3), so that no
// cell containing a body is ever accepted for it. The previous contents of `tree` are replaced.
void build_tree(int dims, std::span<const double> pos, std::span<const double> mass,
                std::span<const std::int64_t> id, double theta, int leaf_size, BodyTree& tree);

struct Force {
  double acc[3] = {0, 0, 0};
  double phi = 0;                 // potential, -sum m / sqrt(r^2 + eps^2)
  std::int64_t interactions = 0;  // cells accepted plus bodies summed directly
};

// Acceleration and potential at x (dims values) from every body in the tree except the one with
// id `self` (pass -1 for a point that is no body), by walking the tree.
Force tree_force(const BodyTree& tree, const double* x, std::int64_t self, double eps);

// The pseudo-bodies (accepted cells and bodies of opened leaves) of one group's interaction list,
// structure of arrays: the scratch of group_forces, one per thread that calls it. A list never
// holds more entries than the tree has cells and bodies; it is sized once per walk and filled
// without capacity checks.
struct InteractionList {
  std::unique_ptr<double[]> x, y, z, m;
  std::size_t capacity = 0;
  int size = 0;
  // Room for `entries` entries; the contents are lost when it grows. Left uninitialised, so that
  // a large bound costs only the pages the walk writes.
  void reserve(std::size_t entries);
  void add(double px, double py, double pz, double pm) {
    x[size] = px, y[size] = py, z[size] = pz, m[size] = pm;
    ++size;
  }
};

// Forces on the tree bodies `bodies` (tree indices; best neighbours in the tree), out[i] for
// bodies[i], from one walk: a cell is accepted for the whole group only when tree_force would
// accept it for every body of the group (the group's bounding box lies outside its opening
// radius). Each body then sums the list in a vectorised loop of direct_force's arithmetic. The
// forces are therefore at least as refined as tree_force's; interactions counts the body's list.
void group_forces(const BodyTree& tree, std::span<const std::int32_t> bodies, double eps,
                  InteractionList& list, std::span<Force> out);

// The scratch of forces_of: one per thread that calls it.
struct GroupWalk {
  InteractionList list;                // what the groups' ancestors settled for all of them
  InteractionList groups[8];           // the own lists of sibling groups (2^dims at most)
  std::vector<std::int32_t> frontier;  // cells left undecided by the groups' ancestors
  std::int64_t cells_tested = 0;       // by the last forces_of: opening tests, the walk's cost
};

// Forces on the tree bodies `bodies` (ascending tree indices, any subset of the tree), out[i] for
// bodies[i]. The bodies are split into groups down the tree: those in a cell of at most
// group_size bodies of the tree, or in a leaf. (Counting only the given bodies, a module's few
// bodies scattered over a large cell became one group whose box opened most of the tree.) Each
// group gets exactly group_forces' list (so its forces up to the order of the sum), but the groups
// under one cell share what the cell's bounding box already settles: the cells accepted, or opened,
// for every group below it are walked once, and the groups that are children of one cell walk
// the rest side by side, each cell fetched and tested once for all of them (one test counted per
// group, as each group's own walk tests it). The same bodies give the same forces bit for bit,
// whatever thread.
void forces_of(const BodyTree& tree, std::span<const std::int32_t> bodies, double eps,
               int group_size, GroupWalk& scratch, std::span<Force> out);

// The group size the workload and the benchmarks walk with: on 1e5 bodies in 3-D it made the
// cheapest force evaluation of 16 to 512 (fewer walks against longer lists).
inline constexpr int kTreeGroupSize = 128;

// Forces on every body of the tree, out[k] for tree body k: forces_of all of them.
void tree_forces(const BodyTree& tree, double eps, int group_size, std::span<Force> out);

// The tree index of the first body in the subtree of `cell`.
int first_body(const BodyTree& tree, int cell);

// The same by direct summation over all bodies of the tree (its cells are not used); `self` is
// the tree index of the body at x, or -1.
Force direct_force(const BodyTree& tree, const double* x, int self, double eps);
// direct_force on every tree body (out[k] for tree body k), the sources summed in cache-sized
// chunks: the fair anchor for timing the tree walk against.
void direct_forces(const BodyTree& tree, double eps, std::vector<Force>& out);

}  // namespace lbb::kernels
