// The tree walk shared by a group of nearby bodies (Barnes 1990): one walk per group collects an
// interaction list that is valid for every body of the group, then each body sums the list in
// one vectorised loop, the same arithmetic as the direct sum. Groups that share ancestors in the
// tree share the part of the walk their ancestors settle (forces_of).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "kernels/barnes_hut.h"

namespace lbb::kernels {

namespace {

// Squared distance from p to the nearest point of the box [lo, hi] (0 inside it).
template <int D>
double box_distance2(const double* p, const double* lo, const double* hi) {
  // p minus its nearest point in the box, per axis: p - hi, p - lo or 0, the same values as the
  // clamp of max(lo - p, p - hi) at 0 (up to sign), so the same squares. Written as that clamp,
  // GCC branched around the square where the clamp gave 0, a branch the walk mispredicts (whether
  // a coordinate lies within the box's extent follows no pattern); min and max compile to minsd
  // and maxsd.
  double d2 = 0;
  for (int d = 0; d < D; ++d) {
    const double out = p[d] - std::min(std::max(p[d], lo[d]), hi[d]);
    d2 += out * out;
  }
  return d2;
}

// Squared distance from p to the farthest point of the box [lo, hi].
template <int D>
double box_far2(const double* p, const double* lo, const double* hi) {
  double d2 = 0;
  for (int d = 0; d < D; ++d) {
    const double out = std::max(p[d] - lo[d], hi[d] - p[d]);
    d2 += out * out;
  }
  return d2;
}

// The end of an interaction list, kept in registers while collect appends to it: appending
// through the InteractionList itself, GCC reloaded its four array pointers and its size for
// every entry. The list's size is set when the tail is closed.
struct ListTail {
  InteractionList& list;
  double *x, *y, *z, *m;
  int size;
  explicit ListTail(InteractionList& l)
      : list(l), x(l.x.data()), y(l.y.data()), z(l.z.data()), m(l.m.data()), size(l.size) {}
  void add(double px, double py, double pz, double pm) {
    x[size] = px, y[size] = py, z[size] = pz, m[size] = pm;
    ++size;
  }
  void close() { list.size = size; }
};

template <int D, class List>
void add_cell(const TreeCell& cell, List& list) {
  list.add(cell.com[0], cell.com[1], D == 3 ? cell.com[2] : 0.0, cell.mass);
}

template <int D, class List>
void add_bodies(const BodyTree& tree, const TreeCell& leaf, List& list) {
  for (int k = leaf.first; k < leaf.first + leaf.count; ++k)
    list.add(tree.x[k], tree.y[k], D == 3 ? tree.z[k] : 0.0, tree.m[k]);
}

// The walk of the subtree of cell `top` for the group in the box [lo, hi], appended to the list.
// A cell is accepted for the whole group when even the group's nearest point to its centre of
// mass is outside its opening radius: then every body of the group would accept it too.
// Returns the number of cells it tested.
template <int D>
int collect(const BodyTree& tree, int top, const double* lo, const double* hi,
            InteractionList& list) {
  ListTail tail(list);
  const int end = tree.cells[top].next;
  int c = top, tested = 0;
  for (; c < end; ++tested) {
    const TreeCell& cell = tree.cells[c];
    // Where the walk goes if it skips this subtree, a jump in memory: fetched while it decides.
    __builtin_prefetch(&tree.cells[cell.next]);
    if (box_distance2<D>(cell.com, lo, hi) > cell.open2) {
      add_cell<D>(cell, tail);
      c = cell.next;
    } else if (cell.first >= 0) {
      add_bodies<D>(tree, cell, tail);
      c = cell.next;
    } else {
      ++c;  // open: descend to the first child
    }
  }
  tail.close();
  return tested;
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

// The bounding box of tree bodies `bodies`.
template <int D>
void bounding_box(const BodyTree& tree, std::span<const std::int32_t> bodies, double* lo,
                  double* hi) {
  const double* pos[3] = {tree.x.data(), tree.y.data(), tree.z.data()};
  for (int d = 0; d < D; ++d) lo[d] = hi[d] = pos[d][bodies[0]];
  for (const std::int32_t k : bodies)
    for (int d = 0; d < D; ++d) {
      lo[d] = std::min(lo[d], pos[d][k]);
      hi[d] = std::max(hi[d], pos[d][k]);
    }
}

// forces_of: the bodies are taken down the tree, cell by cell, until a cell holds at most
// group_size bodies of the tree (or is a leaf): its bodies among them are a group, and its list is
// exactly group_forces' list for it. On the way down, each cell's bodies settle what they can for
// all their groups at once: a cell accepted for the box of all of them is accepted for every group
// below, and a cell opened for every point of the box is opened for every group below (a leaf gives
// its bodies, an internal cell is replaced by its children). The rest stay undecided, the frontier,
// and are tested again against each smaller box.
template <int D>
class SubsetWalk {
 public:
  SubsetWalk(const BodyTree& tree, std::span<const std::int32_t> bodies, double eps, int group_size,
             GroupWalk& scratch, std::span<Force> out)
      : tree_(tree),
        bodies_(bodies),
        eps_(eps),
        group_size_(group_size),
        list_(scratch.list),
        frontier_(scratch.frontier),
        cells_tested_(scratch.cells_tested),
        out_(out) {}

  void run() {
    list_.size = 0;
    list_.reserve(tree_.cells.size() + tree_.m.size());
    frontier_.assign(1, 0);  // the root
    tested_ = 0;
    visit(0, 0, bodies_.size(), 0, 1);
    cells_tested_ = tested_;
  }

 private:
  // Cell c holds bodies_[a, b); frontier_[f0, f1) are the cells its ancestors left undecided.
  void visit(int c, std::size_t a, std::size_t b, std::size_t f0, std::size_t f1) {
    double lo[D], hi[D];
    bounding_box<D>(tree_, bodies_.subspan(a, b - a), lo, hi);
    const int kept = list_.size;
    const TreeCell& cell = tree_.cells[c];
    if (cell.count <= group_size_ || cell.first >= 0) {
      for (std::size_t f = f0; f < f1; ++f)
        tested_ += collect<D>(tree_, frontier_[f], lo, hi, list_);
      for (std::size_t i = a; i < b; ++i) out_[i] = sum_list(tree_, list_, bodies_[i], eps_);
    } else {
      const std::size_t g0 = frontier_.size();
      for (std::size_t f = f0; f < f1; ++f) settle(frontier_[f], lo, hi);
      const std::size_t g1 = frontier_.size();
      std::size_t at = a;
      for (int child = c + 1; child < cell.next; child = tree_.cells[child].next) {
        const int end = first_body(tree_, child) + tree_.cells[child].count;
        std::size_t stop = at;
        while (stop < b && bodies_[stop] < end) ++stop;
        if (stop > at) visit(child, at, stop, g0, g1);
        at = stop;
      }
      frontier_.resize(g0);
    }
    list_.size = kept;
  }

  // Cell c against the box of a cell's bodies: accepted or opened for every group below, or
  // left undecided.
  void settle(int c, const double* lo, const double* hi) {
    const TreeCell& cell = tree_.cells[c];
    ++tested_;
    if (box_distance2<D>(cell.com, lo, hi) > cell.open2) {
      add_cell<D>(cell, list_);
    } else if (box_far2<D>(cell.com, lo, hi) > cell.open2) {
      frontier_.push_back(c);
    } else if (cell.first >= 0) {
      add_bodies<D>(tree_, cell, list_);
    } else {
      for (int child = c + 1; child < cell.next; child = tree_.cells[child].next)
        settle(child, lo, hi);
    }
  }

  const BodyTree& tree_;
  std::span<const std::int32_t> bodies_;
  double eps_;
  int group_size_;
  InteractionList& list_;
  std::vector<std::int32_t>& frontier_;
  std::int64_t& cells_tested_;
  std::int64_t tested_ = 0;
  std::span<Force> out_;
};

}  // namespace

int first_body(const BodyTree& tree, int cell) {
  return tree.cells[cell].begin;
}

void InteractionList::reserve(std::size_t capacity) {
  if (x.size() >= capacity) return;
  x.resize(capacity), y.resize(capacity), z.resize(capacity), m.resize(capacity);
}

void group_forces(const BodyTree& tree, std::span<const std::int32_t> bodies, double eps,
                  InteractionList& list, std::span<Force> out) {
  if (out.size() != bodies.size())
    throw std::invalid_argument("group_forces: one Force per body of the group");
  if (bodies.empty()) return;
  list.size = 0;
  list.reserve(tree.cells.size() + tree.m.size());
  double lo[3], hi[3];
  if (tree.dims == 2) {
    bounding_box<2>(tree, bodies, lo, hi);
    collect<2>(tree, 0, lo, hi, list);
  } else {
    bounding_box<3>(tree, bodies, lo, hi);
    collect<3>(tree, 0, lo, hi, list);
  }
  for (std::size_t i = 0; i < bodies.size(); ++i) out[i] = sum_list(tree, list, bodies[i], eps);
}

void forces_of(const BodyTree& tree, std::span<const std::int32_t> bodies, double eps,
               int group_size, GroupWalk& scratch, std::span<Force> out) {
  if (out.size() != bodies.size()) throw std::invalid_argument("forces_of: one Force per body");
  if (group_size < 1) throw std::invalid_argument("forces_of: group_size must be >= 1");
  scratch.cells_tested = 0;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (bodies[i] < 0 || bodies[i] >= tree.bodies() || (i > 0 && bodies[i] <= bodies[i - 1]))
      throw std::invalid_argument("forces_of: bodies must be ascending tree indices");
  if (bodies.empty()) return;
  if (tree.dims == 2)
    SubsetWalk<2>(tree, bodies, eps, group_size, scratch, out).run();
  else
    SubsetWalk<3>(tree, bodies, eps, group_size, scratch, out).run();
}

void tree_forces(const BodyTree& tree, double eps, int group_size, std::span<Force> out) {
  if (out.size() != static_cast<std::size_t>(tree.bodies()))
    throw std::invalid_argument("tree_forces: one Force per body of the tree");
  std::vector<std::int32_t> bodies(tree.bodies());
  for (int k = 0; k < tree.bodies(); ++k) bodies[k] = k;
  GroupWalk scratch;
  forces_of(tree, bodies, eps, group_size, scratch, out);
}

}  // namespace lbb::kernels
