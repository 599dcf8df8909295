// The tree walk shared by a group of nearby bodies (Barnes 1990): one walk per group collects an
// interaction list that is valid for every body of the group, then each body sums the list in
// one vectorised loop, the same arithmetic as the direct sum.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "kernels/barnes_hut.h"

namespace lbb::kernels {

namespace {

// Squared distance from p to the box [lo, hi] (0 inside it).
template <int D>
double box_distance2(const double* p, const double* lo, const double* hi) {
  double d2 = 0;
  for (int d = 0; d < D; ++d) {
    const double out = std::max({lo[d] - p[d], p[d] - hi[d], 0.0});
    d2 += out * out;
  }
  return d2;
}

// A cell is accepted for the whole group when even the group's nearest point to its centre of
// mass is outside its opening radius: then every body of the group would accept it too.
template <int D>
void collect(const BodyTree& tree, const double* lo, const double* hi, InteractionList& list) {
  list.size = 0;
  list.reserve(tree.cells.size() + tree.m.size());
  const int n_cells = static_cast<int>(tree.cells.size());
  int c = 0;
  while (c < n_cells) {
    const TreeCell& cell = tree.cells[c];
    if (box_distance2<D>(cell.com, lo, hi) > cell.open2) {
      list.add(cell.com[0], cell.com[1], D == 3 ? cell.com[2] : 0.0, cell.mass);
      c = cell.next;
    } else if (cell.first >= 0) {
      for (int k = cell.first; k < cell.first + cell.count; ++k)
        list.add(tree.x[k], tree.y[k], D == 3 ? tree.z[k] : 0.0, tree.m[k]);
      c = cell.next;
    } else {
      ++c;  // open: descend to the first child
    }
  }
}

// The force on tree body `self` from the list: direct_force's arithmetic, vectorised over the
// list, and like direct_force without a branch. The body itself is in the list (its own leaf is
// always opened); it adds no force (a zero offset) and -m / eps to phi, removed after the loop.
Force sum_list(const BodyTree& tree, const InteractionList& list, int self, double eps) {
  const double px = tree.x[self], py = tree.y[self];
  const double pz = tree.dims == 3 ? tree.z[self] : 0.0;
  const double eps2 = eps * eps;
  const double* lx = list.x.data();
  const double* ly = list.y.data();
  const double* lz = list.z.data();
  const double* lm = list.m.data();
  const int n = list.size;
  double ax = 0, ay = 0, az = 0, phi = 0;
#pragma omp simd reduction(+ : ax, ay, az, phi)
  for (int j = 0; j < n; ++j) {
    const double ex = lx[j] - px, ey = ly[j] - py, ez = lz[j] - pz;
    const double inv = 1.0 / std::sqrt(ex * ex + ey * ey + ez * ez + eps2);
    const double inv3 = lm[j] * inv * inv * inv;
    ax += ex * inv3, ay += ey * inv3, az += ez * inv3;
    phi -= lm[j] * inv;
  }
  Force f;
  f.acc[0] = ax, f.acc[1] = ay, f.acc[2] = az;
  f.phi = phi + tree.m[self] / eps;
  f.interactions = n;  // counted as tree_force counts: its own leaf's bodies, itself included
  return f;
}

// The walk and the sums for one group: bodies (tree indices) close together.
template <int D>
void walk_group(const BodyTree& tree, std::span<const std::int32_t> bodies, double eps,
                InteractionList& list, std::span<Force> out) {
  const double* pos[3] = {tree.x.data(), tree.y.data(), tree.z.data()};
  double lo[D], hi[D];
  for (int d = 0; d < D; ++d) lo[d] = hi[d] = pos[d][bodies[0]];
  for (const std::int32_t k : bodies)
    for (int d = 0; d < D; ++d) {
      lo[d] = std::min(lo[d], pos[d][k]);
      hi[d] = std::max(hi[d], pos[d][k]);
    }
  collect<D>(tree, lo, hi, list);
  for (std::size_t i = 0; i < bodies.size(); ++i) out[i] = sum_list(tree, list, bodies[i], eps);
}

}  // namespace

int first_body(const BodyTree& tree, int cell) {
  while (tree.cells[cell].first < 0) ++cell;  // an internal cell's first child follows it
  return tree.cells[cell].first;
}

void InteractionList::reserve(std::size_t capacity) {
  if (x.size() >= capacity) return;
  x.resize(capacity), y.resize(capacity), z.resize(capacity), m.resize(capacity);
}

std::vector<std::int32_t> tree_groups(const BodyTree& tree, int group_size) {
  if (group_size < 1) throw std::invalid_argument("tree_groups: group_size must be >= 1");
  std::vector<std::int32_t> starts;
  const int n_cells = static_cast<int>(tree.cells.size());
  int c = 0;
  while (c < n_cells) {
    const TreeCell& cell = tree.cells[c];
    if (cell.count > group_size && cell.first < 0) {
      ++c;  // too many bodies for one group: its children are the groups
      continue;
    }
    // This cell and the siblings after it while they fit: their bodies follow one another in
    // tree order, and within one parent they stay close together.
    starts.push_back(cell.first >= 0 ? cell.first : first_body(tree, c));
    int bodies = cell.count;
    c = cell.next;
    while (c < n_cells && tree.cells[c].depth == cell.depth &&
           bodies + tree.cells[c].count <= group_size) {
      bodies += tree.cells[c].count;
      c = tree.cells[c].next;
    }
  }
  starts.push_back(tree.bodies());
  return starts;
}

void group_forces(const BodyTree& tree, std::span<const std::int32_t> bodies, double eps,
                  InteractionList& list, std::span<Force> out) {
  if (out.size() != bodies.size())
    throw std::invalid_argument("group_forces: one Force per body of the group");
  if (bodies.empty()) return;
  if (tree.dims == 2)
    walk_group<2>(tree, bodies, eps, list, out);
  else
    walk_group<3>(tree, bodies, eps, list, out);
}

void tree_forces(const BodyTree& tree, double eps, int group_size, std::span<Force> out) {
  if (out.size() != static_cast<std::size_t>(tree.bodies()))
    throw std::invalid_argument("tree_forces: one Force per body of the tree");
  const std::vector<std::int32_t> starts = tree_groups(tree, group_size);
  std::vector<std::int32_t> bodies(tree.bodies());
  for (int k = 0; k < tree.bodies(); ++k) bodies[k] = k;
  InteractionList list;
  for (std::size_t g = 0; g + 1 < starts.size(); ++g) {
    const std::span<const std::int32_t> group(bodies.data() + starts[g],
                                              bodies.data() + starts[g + 1]);
    group_forces(tree, group, eps, list, out.subspan(starts[g], group.size()));
  }
}

}  // namespace lbb::kernels
