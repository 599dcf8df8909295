// The tree walk shared by a group of nearby bodies (Barnes 1990): one walk per group collects an
// interaction list that is valid for every body of the group, then each body sums the list in
// one vectorised loop, the same arithmetic as the direct sum. Groups that share ancestors in the
// tree share the part of the walk their ancestors settle (forces_of).
#include <algorithm>
#include <array>
#include <bit>
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
  InteractionList* list = nullptr;
  double *x = nullptr, *y = nullptr, *z = nullptr, *m = nullptr;
  int size = 0;
  ListTail() = default;
  explicit ListTail(InteractionList& l)
      : list(&l), x(l.x.get()), y(l.y.get()), z(l.z.get()), m(l.m.get()), size(l.size) {}
  void add(double px, double py, double pz, double pm) { put(px, py, pz, pm, true); }
  // Writes the entry and keeps it only if `keep`, without a branch.
  void put(double px, double py, double pz, double pm, bool keep) {
    x[size] = px, y[size] = py, z[size] = pz, m[size] = pm;
    size += keep;
  }
  void close() { list->size = size; }
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

// The bounding box of tree bodies `bodies`.
template <int D>
void bounding_box(const BodyTree& tree, std::span<const std::int32_t> bodies, double* lo,
                  double* hi) {
  const double* pos[3] = {tree.x.data(), tree.y.data(), tree.z.data()};
  const int first = bodies.front();
  if (bodies.back() - first + 1 == static_cast<int>(bodies.size())) {
    // Consecutive tree bodies (a whole cell's, as when the whole tree is walked): a loop over
    // each coordinate array, which vectorises, instead of gathering body by body.
    for (int d = 0; d < D; ++d) {
      const double* p = pos[d] + first;
      double l = p[0], h = p[0];
      for (std::size_t k = 0; k < bodies.size(); ++k) l = std::min(l, p[k]), h = std::max(h, p[k]);
      lo[d] = l, hi[d] = h;
    }
    return;
  }
  for (int d = 0; d < D; ++d) lo[d] = hi[d] = pos[d][first];
  for (const std::int32_t k : bodies)
    for (int d = 0; d < D; ++d) {
      lo[d] = std::min(lo[d], pos[d][k]);
      hi[d] = std::max(hi[d], pos[d][k]);
    }
}

// The boxes of up to kLanes groups walked together, one lane each (lanes beyond `lanes` unused).
template <int D>
struct GroupBoxes {
  static constexpr int kLanes = 8;
  double lo[D][kLanes] = {}, hi[D][kLanes] = {};
  int lanes = 0;

  // Lane i: the bounding box of tree bodies `bodies`.
  void set(int i, const BodyTree& tree, std::span<const std::int32_t> bodies) {
    double l[D], h[D];
    bounding_box<D>(tree, bodies, l, h);
    for (int d = 0; d < D; ++d) lo[d][i] = l[d], hi[d][i] = h[d];
  }

  // Bit i set: group i's box lies outside the opening radius of the cell, so every body of the
  // group would accept it. box_distance2's arithmetic, for all lanes in one vectorised step.
  unsigned accepting(const TreeCell& cell) const {
    double d2[kLanes];
    for (int i = 0; i < kLanes; ++i) {
      d2[i] = 0;
      for (int d = 0; d < D; ++d) {
        const double out = cell.com[d] - std::min(std::max(cell.com[d], lo[d][i]), hi[d][i]);
        d2[i] += out * out;
      }
    }
    // One byte a lane, then the bytes' low bits gathered by one multiplication (byte i times
    // 2^(7 - j) lands on bit 56 + i where i + j = 7, every other product below bit 56): built bit
    // by bit, the mask took a scalar compare, shift and or per lane.
    std::array<std::uint8_t, kLanes> accept;
    for (int i = 0; i < kLanes; ++i) accept[i] = d2[i] > cell.open2;
    static_assert(kLanes == 8 && std::endian::native == std::endian::little);
    return static_cast<unsigned>((std::bit_cast<std::uint64_t>(accept) * 0x0102040810204080u) >>
                                 56);
  }
};

// The walks of the subtrees of cells `tops` for the groups of `boxes`, group i's appended to
// tails[i]: each group's walk is the depth-first walk of its own (the same cells tested, the same
// list in the same order), but the groups walk together (Barnes 1990's groups, walked side by
// side), so a cell that several of them reach is fetched and tested once for all of them. A cell
// is accepted for a group when even the group's nearest point to its centre of mass is outside
// its opening radius: then every body of the group would accept it too. Returns the number of
// tests, one per group and cell.
template <int D>
std::int64_t collect(const BodyTree& tree, std::span<const std::int32_t> tops,
                     const GroupBoxes<D>& boxes, ListTail* tails) {
  const unsigned all = (1u << boxes.lanes) - 1;
  // Where the set of groups walking shrinks, the set outside the subtree: each entry drops a
  // group, so there are fewer than kLanes at once.
  struct Scope {
    int end;
    unsigned groups;
  } scopes[GroupBoxes<D>::kLanes];
  std::int64_t tested = 0;
  for (const std::int32_t top : tops) {
    const int end = tree.cells[top].next;
    unsigned walking = all;
    int depth = 0;
    for (int c = top; c < end;) {
      while (depth > 0 && c == scopes[depth - 1].end) walking = scopes[--depth].groups;
      const TreeCell& cell = tree.cells[c];
      // Where the walk goes if it skips this subtree, a jump in memory: fetched while it decides.
      __builtin_prefetch(&tree.cells[cell.next]);
      const unsigned accept = boxes.accepting(cell) & walking;
      tested += std::popcount(walking);
      // Written for every group, kept where accepted: whether a cell is accepted follows no
      // pattern, and as a branch it was mispredicted about every other cell.
      for (int i = 0; i < boxes.lanes; ++i)
        tails[i].put(cell.com[0], cell.com[1], cell.com[2], cell.mass, (accept >> i) & 1);
      const unsigned open = walking & ~accept;
      if (open == 0) {
        c = cell.next;
      } else if (cell.first >= 0) {
        for (unsigned g = open; g != 0; g &= g - 1)
          add_bodies<D>(tree, cell, tails[std::countr_zero(g)]);
        c = cell.next;
      } else {
        if (open != walking) scopes[depth++] = {cell.next, walking}, walking = open;
        ++c;  // open: descend to the first child
      }
    }
  }
  return tested;
}

// Lists are summed in runs of kPad entries, a multiple of every vector length the sum compiles
// to: the entries after the last one to a multiple of kPad are of zero mass (pad), so that they
// add exactly nothing and the vectorised loop needs no scalar remainder (up to 7 entries a list
// and body, summed one by one at several times the cost of a vector lane).
constexpr int kPad = 8;

int padded(int n) {
  return (n + kPad - 1) / kPad * kPad;
}

// Writes the zero-mass entries after the list's last, up to a multiple of kPad (its size stays).
void pad(InteractionList& list) {
  for (int j = list.size; j < padded(list.size); ++j)
    list.x[j] = list.y[j] = list.z[j] = list.m[j] = 0;
}

// Adds to acc (ax, ay, az, phi) what the first n entries of the list (padded) exert on p:
// direct_force's arithmetic, vectorised over the list, and like direct_force without a branch.
void add_list(const InteractionList& list, int n, const double* p, double eps2, double* acc) {
  n = padded(n);
  const double* lx = list.x.get();
  const double* ly = list.y.get();
  const double* lz = list.z.get();
  const double* lm = list.m.get();
  double ax = 0, ay = 0, az = 0, phi = 0;
#pragma omp simd reduction(+ : ax, ay, az, phi)
  for (int j = 0; j < n; ++j) {
    const double ex = lx[j] - p[0], ey = ly[j] - p[1], ez = lz[j] - p[2];
    const double inv = 1.0 / std::sqrt(ex * ex + ey * ey + ez * ez + eps2);
    const double inv3 = lm[j] * inv * inv * inv;
    ax += ex * inv3, ay += ey * inv3, az += ez * inv3;
    phi -= lm[j] * inv;
  }
  acc[0] += ax, acc[1] += ay, acc[2] += az, acc[3] += phi;
}

// The force on tree body `self` from its group's list: the part its ancestors settled for all
// their groups (the first `shared` entries of `common`) and its group's own. The body itself is
// in the list (its own leaf is always opened); it adds no force (a zero offset) and -m / eps to
// phi, removed after the sums.
Force sum_list(const BodyTree& tree, const InteractionList& common, int shared,
               const InteractionList& own, int self, double eps) {
  const double p[3] = {tree.x[self], tree.y[self], tree.dims == 3 ? tree.z[self] : 0.0};
  double acc[4] = {0, 0, 0, 0};
  add_list(common, shared, p, eps * eps, acc);
  add_list(own, own.size, p, eps * eps, acc);
  Force f;
  f.acc[0] = acc[0], f.acc[1] = acc[1], f.acc[2] = acc[2];
  f.phi = acc[3] + tree.m[self] / eps;
  // Counted as tree_force counts: its own leaf's bodies, itself included.
  f.interactions = shared + own.size;
  return f;
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
        own_(scratch.groups),
        frontier_(scratch.frontier),
        cells_tested_(scratch.cells_tested),
        out_(out) {}

  void run() {
    list_.size = 0;
    list_.reserve(tree_.cells.size() + tree_.m.size() + kPad);
    frontier_.assign(1, 0);  // the root
    tested_ = 0;
    visit(0, 0, bodies_.size(), 0, 1);
    cells_tested_ = tested_;
  }

 private:
  bool is_group(const TreeCell& cell) const { return cell.count <= group_size_ || cell.first >= 0; }

  // Cell c holds bodies_[a, b); frontier_[f0, f1) are the cells its ancestors left undecided.
  void visit(int c, std::size_t a, std::size_t b, std::size_t f0, std::size_t f1) {
    const TreeCell& cell = tree_.cells[c];
    if (is_group(cell)) {  // only the root comes here as a group: the others walk with siblings
      walk_groups(&a, &b, 1, f0, f1);
      return;
    }
    double lo[D], hi[D];
    bounding_box<D>(tree_, bodies_.subspan(a, b - a), lo, hi);
    const int kept = list_.size;
    const std::size_t g0 = frontier_.size();
    for (std::size_t f = f0; f < f1; ++f) settle(frontier_[f], lo, hi);
    const std::size_t g1 = frontier_.size();
    // The children that are groups walk together; the others go on down the tree.
    std::size_t from[GroupBoxes<D>::kLanes], to[GroupBoxes<D>::kLanes];
    int groups = 0;
    std::size_t at = a;
    for (int child = c + 1; child < cell.next; child = tree_.cells[child].next) {
      const TreeCell& kid = tree_.cells[child];
      const int end = first_body(tree_, child) + kid.count;
      const std::size_t stop = static_cast<std::size_t>(
          std::lower_bound(bodies_.begin() + at, bodies_.begin() + b, end) - bodies_.begin());
      if (stop > at && is_group(kid))
        from[groups] = at, to[groups] = stop, ++groups;
      else if (stop > at)
        visit(child, at, stop, g0, g1);
      at = stop;
    }
    if (groups > 0) walk_groups(from, to, groups, g0, g1);
    frontier_.resize(g0);
    list_.size = kept;
  }

  // Groups bodies_[from[i], to[i]) walk the frontier_[f0, f1) together, each into a list of its
  // own after list_, which holds what their ancestors settled for all of them.
  void walk_groups(const std::size_t* from, const std::size_t* to, int groups, std::size_t f0,
                   std::size_t f1) {
    GroupBoxes<D> boxes;
    boxes.lanes = groups;
    for (int i = 0; i < groups; ++i) boxes.set(i, tree_, bodies_.subspan(from[i], to[i] - from[i]));
    const auto tops = std::span<const std::int32_t>(frontier_).subspan(f0, f1 - f0);
    // A group's own list holds at most each top's cells and bodies, and collect writes one
    // entry past its end, pad up to kPad - 1.
    std::size_t bound = kPad;
    for (const std::int32_t top : tops)
      bound += static_cast<std::size_t>(tree_.cells[top].next - top + tree_.cells[top].count);
    ListTail tails[GroupBoxes<D>::kLanes];
    for (int i = 0; i < groups; ++i) {
      InteractionList& own = own_[i];
      if (own.capacity < bound) own.reserve(std::max(bound, 2 * own.capacity));
      own.size = 0;
      tails[i] = ListTail(own);
    }
    tested_ += collect<D>(tree_, tops, boxes, tails);
    pad(list_);
    for (int i = 0; i < groups; ++i) {
      tails[i].close();
      pad(own_[i]);
      for (std::size_t k = from[i]; k < to[i]; ++k)
        out_[k] = sum_list(tree_, list_, list_.size, own_[i], bodies_[k], eps_);
    }
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
  InteractionList* own_;
  std::vector<std::int32_t>& frontier_;
  std::int64_t& cells_tested_;
  std::int64_t tested_ = 0;
  std::span<Force> out_;
};

}  // namespace

int first_body(const BodyTree& tree, int cell) {
  return tree.cells[cell].begin;
}

void InteractionList::reserve(std::size_t entries) {
  if (capacity >= entries) return;
  x.reset(new double[entries]), y.reset(new double[entries]);
  z.reset(new double[entries]), m.reset(new double[entries]);
  capacity = entries;
}

void group_forces(const BodyTree& tree, std::span<const std::int32_t> bodies, double eps,
                  InteractionList& list, std::span<Force> out) {
  if (out.size() != bodies.size())
    throw std::invalid_argument("group_forces: one Force per body of the group");
  if (bodies.empty()) return;
  list.size = 0;
  list.reserve(tree.cells.size() + tree.m.size() + kPad);
  const std::int32_t root[1] = {0};
  ListTail tail(list);
  if (tree.dims == 2) {
    GroupBoxes<2> box;
    box.lanes = 1, box.set(0, tree, bodies);
    collect<2>(tree, root, box, &tail);
  } else {
    GroupBoxes<3> box;
    box.lanes = 1, box.set(0, tree, bodies);
    collect<3>(tree, root, box, &tail);
  }
  tail.close();
  pad(list);
  const InteractionList none;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    out[i] = sum_list(tree, none, 0, list, bodies[i], eps);
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
