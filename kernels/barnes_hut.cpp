#include "kernels/barnes_hut.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace lbb::kernels {

namespace {

// Spreads the low bits of v so that bit k lands on bit D k (a Morton key's interleave), by the
// usual shift-and-mask steps: each halves the width of the blocks that move together.
template <int D>
std::uint64_t spread_bits(std::uint64_t v) {
  if constexpr (D == 2) {
    v &= 0x7fffffffu;  // 31 bits
    v = (v | v << 16) & 0x0000ffff0000ffffu;
    v = (v | v << 8) & 0x00ff00ff00ff00ffu;
    v = (v | v << 4) & 0x0f0f0f0f0f0f0f0fu;
    v = (v | v << 2) & 0x3333333333333333u;
    return (v | v << 1) & 0x5555555555555555u;
  } else {
    v &= 0x1fffffu;  // 21 bits
    v = (v | v << 32) & 0x001f00000000ffffu;
    v = (v | v << 16) & 0x001f0000ff0000ffu;
    v = (v | v << 8) & 0x100f00f00f00f00fu;
    v = (v | v << 4) & 0x10c30c30c30c30c3u;
    return (v | v << 2) & 0x1249249249249249u;
  }
}

using KeyedBody = std::pair<std::uint64_t, std::int32_t>;  // Morton key, index in the input

// Sorts keys by key, stably: a least-significant-digit radix sort, a byte a pass, passes where
// every key has the same byte skipped. The input comes in index order, so the result is
// std::sort's (ties by index), in linear time (std::sort took about 40 % of the build at 1e5).
void radix_sort(std::vector<KeyedBody>& keys, std::vector<KeyedBody>& scratch) {
  constexpr int kDigits = 8;
  std::size_t count[kDigits][256] = {};
  for (const KeyedBody& k : keys)
    for (int d = 0; d < kDigits; ++d) ++count[d][(k.first >> (8 * d)) & 0xff];
  scratch.resize(keys.size());
  for (int d = 0; d < kDigits; ++d) {
    std::size_t* c = count[d];
    if (c[(keys[0].first >> (8 * d)) & 0xff] == keys.size()) continue;
    std::size_t at = 0;
    for (int b = 0; b < 256; ++b) at += std::exchange(c[b], at);
    for (const KeyedBody& k : keys) scratch[c[(k.first >> (8 * d)) & 0xff]++] = k;
    keys.swap(scratch);
  }
}

template <int D>
class TreeBuilder {
 public:
  static constexpr int kBits = D == 2 ? 31 : 21;  // key bits per dimension
  static constexpr int kChildren = 1 << D;

  TreeBuilder(std::span<const double> pos, std::span<const double> mass,
              std::span<const std::int64_t> id, double theta, int leaf_size, BodyTree& tree)
      : pos_(pos), mass_(mass), id_(id), theta_(theta), leaf_size_(leaf_size), tree_(tree) {}

  void build() {
    const std::size_t n = mass_.size();
    tree_.dims = D;
    tree_.theta = theta_;
    tree_.cells.clear();
    if (n == 0) {
      tree_.x.clear(), tree_.y.clear(), tree_.z.clear(), tree_.m.clear(), tree_.id.clear();
      tree_.order.clear();
      return;
    }
    // The root is the smallest cube holding every body, slightly enlarged so that the largest
    // coordinate still maps below 2^kBits.
    double lo[D], hi[D];
    for (int d = 0; d < D; ++d) lo[d] = hi[d] = pos_[d];
    for (std::size_t i = 0; i < n; ++i)
      for (int d = 0; d < D; ++d) {
        lo[d] = std::min(lo[d], pos_[i * D + d]);
        hi[d] = std::max(hi[d], pos_[i * D + d]);
      }
    double size = 0;
    for (int d = 0; d < D; ++d) size = std::max(size, hi[d] - lo[d]);
    size = size > 0 ? size * (1 + 1e-9) : 1.0;
    const double scale = std::ldexp(1.0, kBits) / size;
    keys_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t key = 0;
      for (int d = 0; d < D; ++d) {
        const double q = std::floor((pos_[i * D + d] - lo[d]) * scale);
        const auto c = static_cast<std::uint64_t>(std::clamp(q, 0.0, std::ldexp(1.0, kBits) - 1));
        key |= spread_bits<D>(c) << d;
      }
      keys_[i] = {key, static_cast<std::int32_t>(i)};
    }
    radix_sort(keys_, scratch_);
    tree_.order.resize(n);
    tree_.x.resize(n);
    tree_.y.resize(n);
    tree_.z.resize(D == 3 ? n : 0);
    tree_.m.resize(n);
    tree_.id.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      const std::int32_t i = keys_[k].second;
      tree_.order[k] = i;
      tree_.x[k] = pos_[i * D];
      tree_.y[k] = pos_[i * D + 1];
      if constexpr (D == 3) tree_.z[k] = pos_[i * D + 2];
      tree_.m[k] = mass_[i];
      tree_.id[k] = id_[i];
    }
    double centre[D];
    for (int d = 0; d < D; ++d) centre[d] = lo[d] + 0.5 * size;
    build_cell(0, 0, static_cast<int>(n), centre, size);
  }

 private:
  // Builds the cell of bodies [begin, end) at `depth` and its subtree; returns its index.
  int build_cell(int depth, int begin, int end, const double centre[D], double size) {
    const int c = static_cast<int>(tree_.cells.size());
    tree_.cells.push_back({});
    double com[3] = {0, 0, 0}, mass = 0;
    if (end - begin <= leaf_size_ || depth == kBits) {
      for (int k = begin; k < end; ++k) {
        const double mk = tree_.m[k];
        mass += mk;
        com[0] += mk * tree_.x[k];
        com[1] += mk * tree_.y[k];
        if constexpr (D == 3) com[2] += mk * tree_.z[k];
      }
      tree_.cells[c].first = begin;
    } else {
      const int shift = D * (kBits - 1 - depth);
      int b = begin;
      for (int child = 0; child < kChildren && b < end; ++child) {
        // Keys are sorted, so the child's bodies are the run with this octant at this depth.
        const auto stop =
            std::partition_point(keys_.begin() + b, keys_.begin() + end, [&](const auto& kv) {
              return static_cast<int>((kv.first >> shift) & (kChildren - 1)) <= child;
            });
        const int e = static_cast<int>(stop - keys_.begin());
        if (e == b) continue;
        double child_centre[D];
        for (int d = 0; d < D; ++d)
          child_centre[d] = centre[d] + ((child >> d) & 1 ? 0.25 : -0.25) * size;
        const int k = build_cell(depth + 1, b, e, child_centre, 0.5 * size);
        const TreeCell& kc = tree_.cells[k];
        mass += kc.mass;
        for (int d = 0; d < D; ++d) com[d] += kc.mass * kc.com[d];
        b = e;
      }
      tree_.cells[c].first = -1;
    }
    TreeCell& cell = tree_.cells[c];
    double offset2 = 0;
    for (int d = 0; d < D; ++d) {
      cell.com[d] = mass > 0 ? com[d] / mass : centre[d];
      offset2 += (cell.com[d] - centre[d]) * (cell.com[d] - centre[d]);
    }
    const double radius = size / theta_ + std::sqrt(offset2);
    cell.mass = mass;
    cell.open2 = radius * radius;
    cell.count = end - begin;
    cell.begin = begin;
    cell.next = static_cast<std::int32_t>(tree_.cells.size());
    return c;
  }

  std::span<const double> pos_, mass_;
  std::span<const std::int64_t> id_;
  double theta_;
  int leaf_size_;
  BodyTree& tree_;
  std::vector<KeyedBody> keys_, scratch_;
};

template <int D>
Force walk(const BodyTree& tree, const double* x, std::int64_t self, double eps) {
  Force f;
  const double eps2 = eps * eps;
  const double* bx = tree.x.data();
  const double* by = tree.y.data();
  const double* bz = D == 3 ? tree.z.data() : nullptr;
  const double* bm = tree.m.data();
  const int n_cells = static_cast<int>(tree.cells.size());
  double ax = 0, ay = 0, az = 0, phi = 0;
  std::int64_t interactions = 0;
  int c = 0;
  while (c < n_cells) {
    const TreeCell& cell = tree.cells[c];
    const double dx = cell.com[0] - x[0], dy = cell.com[1] - x[1];
    const double dz = D == 3 ? cell.com[2] - x[2] : 0.0;
    const double d2 = dx * dx + dy * dy + dz * dz;
    if (d2 > cell.open2) {
      const double inv = 1.0 / std::sqrt(d2 + eps2);
      const double inv3 = cell.mass * inv * inv * inv;
      ax += dx * inv3, ay += dy * inv3, az += dz * inv3;
      phi -= cell.mass * inv;
      ++interactions;
      c = cell.next;
    } else if (cell.first >= 0) {
      const int end = cell.first + cell.count;
      for (int k = cell.first; k < end; ++k) {
        if (tree.id[k] == self) continue;
        const double ex = bx[k] - x[0], ey = by[k] - x[1];
        const double ez = D == 3 ? bz[k] - x[2] : 0.0;
        const double inv = 1.0 / std::sqrt(ex * ex + ey * ey + ez * ez + eps2);
        const double inv3 = bm[k] * inv * inv * inv;
        ax += ex * inv3, ay += ey * inv3, az += ez * inv3;
        phi -= bm[k] * inv;
      }
      interactions += cell.count;
      c = cell.next;
    } else {
      ++c;  // open: descend to the first child
    }
  }
  f.acc[0] = ax, f.acc[1] = ay, f.acc[2] = az;
  f.phi = phi;
  f.interactions = interactions;
  return f;
}

// Adds to f what tree bodies [begin, end) exert on the point x: every body, the one at x
// included (it adds no force and -m / eps to phi, removed by the caller), so that the loop has no
// branch; the reduction may be reordered, so that it vectorises.
template <int D>
void direct_range(const BodyTree& tree, const double* x, int begin, int end, double eps, Force& f) {
  const double eps2 = eps * eps;
  const double* bx = tree.x.data();
  const double* by = tree.y.data();
  const double* bz = D == 3 ? tree.z.data() : nullptr;
  const double* bm = tree.m.data();
  double ax = 0, ay = 0, az = 0, phi = 0;
#pragma omp simd reduction(+ : ax, ay, az, phi)
  for (int k = begin; k < end; ++k) {
    const double ex = bx[k] - x[0], ey = by[k] - x[1];
    const double ez = D == 3 ? bz[k] - x[2] : 0.0;
    const double inv = 1.0 / std::sqrt(ex * ex + ey * ey + ez * ez + eps2);
    const double inv3 = bm[k] * inv * inv * inv;
    ax += ex * inv3, ay += ey * inv3, az += ez * inv3;
    phi -= bm[k] * inv;
  }
  f.acc[0] += ax, f.acc[1] += ay, f.acc[2] += az;
  f.phi += phi;
  f.interactions += end - begin;
}

template <int D>
Force direct(const BodyTree& tree, const double* x, int self, double eps) {
  Force f;
  direct_range<D>(tree, x, 0, tree.bodies(), eps, f);
  if (self >= 0) f.phi += tree.m[self] / eps;
  return f;
}

// Sources in chunks of 8192 bodies (256 KiB in 3-D), each summed for every target while it is in
// cache: the same arithmetic as direct(), without streaming all bodies from memory per target.
template <int D>
void direct_all(const BodyTree& tree, double eps, std::vector<Force>& out) {
  constexpr int kChunk = 8192;
  const int n = tree.bodies();
  out.assign(n, Force{});
  double x[3] = {0, 0, 0};
  for (int begin = 0; begin < n; begin += kChunk)
    for (int k = 0; k < n; ++k) {
      x[0] = tree.x[k], x[1] = tree.y[k];
      if (D == 3) x[2] = tree.z[k];
      direct_range<D>(tree, x, begin, std::min(n, begin + kChunk), eps, out[k]);
    }
  for (int k = 0; k < n; ++k) out[k].phi += tree.m[k] / eps;
}

}  // namespace

void build_tree(int dims, std::span<const double> pos, std::span<const double> mass,
                std::span<const std::int64_t> id, double theta, int leaf_size, BodyTree& tree) {
  if (pos.size() != mass.size() * dims || id.size() != mass.size())
    throw std::invalid_argument("build_tree: pos needs dims values, id one, per body");
  if (!(theta > 0 && theta < 2 / std::sqrt(3.0)))
    throw std::invalid_argument("build_tree: theta must be in (0, 2/sqrt(3))");
  if (leaf_size < 1) throw std::invalid_argument("build_tree: leaf_size must be >= 1");
  if (mass.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
    throw std::invalid_argument("build_tree: too many bodies");
  if (dims == 2)
    TreeBuilder<2>(pos, mass, id, theta, leaf_size, tree).build();
  else if (dims == 3)
    TreeBuilder<3>(pos, mass, id, theta, leaf_size, tree).build();
  else
    throw std::invalid_argument("build_tree: dims must be 2 or 3");
}

Force tree_force(const BodyTree& tree, const double* x, std::int64_t self, double eps) {
  return tree.dims == 2 ? walk<2>(tree, x, self, eps) : walk<3>(tree, x, self, eps);
}

Force direct_force(const BodyTree& tree, const double* x, int self, double eps) {
  return tree.dims == 2 ? direct<2>(tree, x, self, eps) : direct<3>(tree, x, self, eps);
}

void direct_forces(const BodyTree& tree, double eps, std::vector<Force>& out) {
  tree.dims == 2 ? direct_all<2>(tree, eps, out) : direct_all<3>(tree, eps, out);
}

}  // namespace lbb::kernels
