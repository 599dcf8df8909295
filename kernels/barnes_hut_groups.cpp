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

// Pseudo-bodies of one group's interaction list, structure of arrays. A list never holds more
// entries than the tree has cells and bodies, so the arrays are sized once and filled without
// capacity checks.
struct InteractionList {
  std::vector<double> x, y, z, m;
  std::vector<std::int32_t> body;  // tree index of a body, -1 for a cell
  int size = 0;

  explicit InteractionList(std::size_t capacity)
      : x(capacity), y(capacity), z(capacity), m(capacity), body(capacity) {}
  void add(double px, double py, double pz, double pm, std::int32_t index) {
    x[size] = px, y[size] = py, z[size] = pz, m[size] = pm, body[size] = index;
    ++size;
  }
};

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
  const int n_cells = static_cast<int>(tree.cells.size());
  int c = 0;
  while (c < n_cells) {
    const TreeCell& cell = tree.cells[c];
    if (box_distance2<D>(cell.com, lo, hi) > cell.open2) {
      list.add(cell.com[0], cell.com[1], D == 3 ? cell.com[2] : 0.0, cell.mass, -1);
      c = cell.next;
    } else if (cell.first >= 0) {
      for (int k = cell.first; k < cell.first + cell.count; ++k)
        list.add(tree.x[k], tree.y[k], D == 3 ? tree.z[k] : 0.0, tree.m[k], k);
      c = cell.next;
    } else {
      ++c;  // open: descend to the first child
    }
  }
}

// The force on tree body `self` from the list, skipping the body itself: the same arithmetic as
// direct_force, vectorised over the list.
Force sum_list(const BodyTree& tree, const InteractionList& list, int self, double eps2) {
  const double px = tree.x[self], py = tree.y[self];
  const double pz = tree.dims == 3 ? tree.z[self] : 0.0;
  const double* lx = list.x.data();
  const double* ly = list.y.data();
  const double* lz = list.z.data();
  const double* lm = list.m.data();
  const std::int32_t* body = list.body.data();
  const int n = list.size;
  double ax = 0, ay = 0, az = 0, phi = 0;
#pragma omp simd reduction(+ : ax, ay, az, phi)
  for (int j = 0; j < n; ++j) {
    const double ex = lx[j] - px, ey = ly[j] - py, ez = lz[j] - pz;
    const double inv = body[j] == self ? 0.0 : 1.0 / std::sqrt(ex * ex + ey * ey + ez * ez + eps2);
    const double inv3 = lm[j] * inv * inv * inv;
    ax += ex * inv3, ay += ey * inv3, az += ez * inv3;
    phi -= lm[j] * inv;
  }
  Force f;
  f.acc[0] = ax, f.acc[1] = ay, f.acc[2] = az;
  f.phi = phi;
  f.interactions = n;  // counted as tree_force counts: its own leaf's bodies, itself included
  return f;
}

template <int D>
void group_forces(const BodyTree& tree, double eps, int group_size, std::span<Force> out) {
  InteractionList list(tree.cells.size() + tree.m.size());
  const double* pos[3] = {tree.x.data(), tree.y.data(), tree.z.data()};
  const int n_cells = static_cast<int>(tree.cells.size());
  int c = 0;
  while (c < n_cells) {
    const TreeCell& cell = tree.cells[c];
    if (cell.count > group_size && cell.first < 0) {
      ++c;  // too many bodies for one group: its children are the groups
      continue;
    }
    // The group: the bodies of this cell, contiguous in tree order from the cell's first body.
    const int first = cell.first >= 0 ? cell.first : first_body(tree, c);
    double lo[D], hi[D];
    for (int d = 0; d < D; ++d) lo[d] = hi[d] = pos[d][first];
    for (int k = first; k < first + cell.count; ++k)
      for (int d = 0; d < D; ++d) {
        lo[d] = std::min(lo[d], pos[d][k]);
        hi[d] = std::max(hi[d], pos[d][k]);
      }
    collect<D>(tree, lo, hi, list);
    for (int k = first; k < first + cell.count; ++k) out[k] = sum_list(tree, list, k, eps * eps);
    c = cell.next;
  }
}

}  // namespace

int first_body(const BodyTree& tree, int cell) {
  while (tree.cells[cell].first < 0) ++cell;  // an internal cell's first child follows it
  return tree.cells[cell].first;
}

void tree_forces(const BodyTree& tree, double eps, int group_size, std::span<Force> out) {
  if (out.size() != static_cast<std::size_t>(tree.bodies()))
    throw std::invalid_argument("tree_forces: one Force per body of the tree");
  if (group_size < 1) throw std::invalid_argument("tree_forces: group_size must be >= 1");
  if (tree.dims == 2)
    group_forces<2>(tree, eps, group_size, out);
  else
    group_forces<3>(tree, eps, group_size, out);
}

}  // namespace lbb::kernels
