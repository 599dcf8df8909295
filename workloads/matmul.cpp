#include "workloads/matmul.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

#include "core/text.h"
#include "kernels/matmul.h"

namespace lbb {

namespace {

// Module state: this header (one cache line, so the matrices start on one), then the block of
// X (rows x r) and the block of Z (rows x m), row-major.
struct alignas(64) RowBlockHeader {
  std::int32_t module;
  std::int32_t rows;
  std::int32_t first_row;
  std::int32_t r;
  std::int32_t m;
};

struct RowBlockView {
  RowBlockHeader* header;
  std::span<double> x, z;
};

RowBlockView view_of(std::span<std::byte> state) {
  auto* h = reinterpret_cast<RowBlockHeader*>(state.data());
  auto* d = reinterpret_cast<double*>(state.data() + sizeof(RowBlockHeader));
  const std::size_t xs = static_cast<std::size_t>(h->rows) * h->r;
  return {h, {d, xs}, {d + xs, static_cast<std::size_t>(h->rows) * h->m}};
}

// An independent stream per (seed, stream, index): rows of X and Y are drawn on their own.
std::mt19937_64 stream(std::uint64_t seed, std::uint32_t which, std::uint32_t index) {
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), which,
                    index};
  return std::mt19937_64(seq);
}

std::vector<double> uniform_row(std::mt19937_64 rng, int length) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> row(length);
  for (double& v : row) v = u(rng);
  return row;
}

}  // namespace

WorkloadInfo Matmul::info() {
  WorkloadInfo info{
      "matmul",
      "Z = X Y with X n x r and Y r x m, modules are row blocks of Z computed by OpenBLAS dgemm "
      "(Zaki, Li & Parthasarathy 1997)",
      {
          int_param("n", 800, "rows of X and Z", 1, 1 << 20),
          int_param("r", 800, "columns of X, rows of Y", 1, 1 << 20),
          int_param("m", 400, "columns of Y and Z", 1, 1 << 20),
          int_param("block_rows", 25, "rows of Z per module (the last block may be shorter)", 1,
                    1 << 20),
          int_param("samples", 2000,
                    "entries of Z checked against a dot product at "
                    "verification (every row and column sum is checked too)",
                    0, 1 << 24),
          int_param("seed", 1, "seed of X and Y", 0),
      },
      [](const Params& p) { return std::make_unique<Matmul>(p); },
      [](const Params& p) {
        return static_cast<int>((p.integer("n") + p.integer("block_rows") - 1) /
                                p.integer("block_rows"));
      },
      nullptr,
      [](const Params& p, int) {
        // X and Y, the states (rows of X and Z: n (r + m)), Z gathered at verification.
        const double n = static_cast<double>(p.integer("n"));
        const double r = static_cast<double>(p.integer("r"));
        const double m = static_cast<double>(p.integer("m"));
        return sizeof(double) * (n * r + r * m + n * (r + m) + n * m);
      },
  };
  info.has_coordinates = [](const Params&) { return true; };
  return info;
}

Matmul::Matmul(const Params& params)
    : n_(static_cast<int>(params.integer("n"))),
      r_(static_cast<int>(params.integer("r"))),
      m_(static_cast<int>(params.integer("m"))),
      seed_(static_cast<std::uint64_t>(params.integer("seed"))),
      samples_(static_cast<int>(params.integer("samples"))) {
  const int block = static_cast<int>(params.integer("block_rows"));
  for (int row = 0; row < n_; row += block) first_row_.push_back(row);
  first_row_.push_back(n_);
  y_ = make_y();
  block_sum_.assign(module_count(), 0.0);
}

std::vector<double> Matmul::x_row(int i) const {
  return uniform_row(stream(seed_, 0, static_cast<std::uint32_t>(i)), r_);
}

std::vector<double> Matmul::make_y() const {
  std::vector<double> y;
  y.reserve(static_cast<std::size_t>(r_) * m_);
  for (int k = 0; k < r_; ++k) {
    const auto row = uniform_row(stream(seed_, 1, static_cast<std::uint32_t>(k)), m_);
    y.insert(y.end(), row.begin(), row.end());
  }
  return y;
}

std::vector<double> Matmul::module_coords() const {
  std::vector<double> c(module_count());
  for (int i = 0; i < module_count(); ++i) c[i] = 0.5 * (first_row_[i] + first_row_[i + 1]);
  return c;
}

std::vector<double> Matmul::predicted_weights() const {
  // dgemm does 2 rows r m flops for a block: linear in its rows.
  std::vector<double> w(module_count());
  for (int i = 0; i < module_count(); ++i) w[i] = 2.0 * rows(i) * r_ * m_;
  return w;
}

std::size_t Matmul::state_bytes(int module) const {
  return sizeof(RowBlockHeader) +
         sizeof(double) * static_cast<std::size_t>(rows(module)) * (r_ + m_);
}

void Matmul::init_state(int module, std::span<std::byte> state) const {
  auto* h = reinterpret_cast<RowBlockHeader*>(state.data());
  *h = {};
  h->module = module;
  h->rows = rows(module);
  h->first_row = first_row_[module];
  h->r = r_;
  h->m = m_;
  RowBlockView v = view_of(state);
  for (int i = 0; i < h->rows; ++i) {
    const auto row = x_row(h->first_row + i);
    std::memcpy(v.x.data() + static_cast<std::size_t>(i) * r_, row.data(), sizeof(double) * r_);
  }
  std::fill(v.z.begin(), v.z.end(), 0.0);
}

void Matmul::run_module(int module, int /*step*/, int /*phase*/, std::span<std::byte> state) {
  RowBlockView v = view_of(state);
  if (v.header->module != module || v.header->rows != rows(module))
    throw std::runtime_error("matmul: state of module " + std::to_string(module) +
                             " has a bad header");
  kernels::row_block_product(v.header->rows, r_, m_, v.x, y_, v.z);
  double sum = 0;
  for (double z : v.z) sum += z;
  block_sum_[module] = sum;
}

bool Matmul::phase_outputs(int module, int, int, std::vector<std::span<std::byte>>& out) {
  out.push_back(std::as_writable_bytes(std::span(&block_sum_[module], 1)));
  return true;
}

void Matmul::finish_step(int /*step*/, ModuleStates& /*states*/) {
  double sum = 0;
  for (double s : block_sum_) sum += s;
  checksum_.push_back(sum);
}

std::vector<StepMetric> Matmul::step_metrics() const {
  return {{"checksum", "sum of all entries of Z after the step"}};
}

std::vector<double> Matmul::step_metric_values(int step) const {
  return {checksum_.at(step)};
}

std::vector<double> Matmul::gather_product(ModuleStates& states) const {
  std::vector<double> z(static_cast<std::size_t>(n_) * m_);
  for (int b = 0; b < module_count(); ++b) {
    std::span<std::byte> s = states.state(b);
    if (s.size() != state_bytes(b))
      throw std::runtime_error("state of module " + std::to_string(b) + " has a bad size");
    RowBlockView view = view_of(s);
    if (view.header->module != b || view.header->rows != rows(b) ||
        view.header->first_row != first_row_[b] || view.header->r != r_ || view.header->m != m_)
      throw std::runtime_error("state of module " + std::to_string(b) + " has a bad header");
    std::memcpy(z.data() + static_cast<std::size_t>(first_row_[b]) * m_, view.z.data(),
                view.z.size_bytes());
  }
  return z;
}

namespace {

// Huang & Abraham 1984's checksums of Z = X Y, from X and Y regenerated from the seed, in long
// double, each with the sum of its absolute terms (its scale), and sampled entries of Z.
struct ProductReference : SerialReference {
  using SerialReference::SerialReference;
  struct Sum {
    long double want = 0, scale = 0;
  };
  struct Entry {
    int row = 0, col = 0;
    Sum sum;
  };
  std::vector<Sum> row, col;   // z_i . 1 = x_i . (Y 1), 1^T z_j = (1^T X) . y_j
  std::vector<Entry> sampled;  // z_ij = x_i . y_j, by row
  long double total_want = 0, total_scale = 0;
};

}  // namespace

std::shared_ptr<const SerialReference> Matmul::reference(int steps_run) const {
  auto ref = std::make_shared<ProductReference>(steps_run);
  const std::vector<double> y = make_y();
  std::vector<long double> y_row_sum(r_, 0), y_row_abs(r_, 0), x_col_sum(r_, 0), x_col_abs(r_, 0);
  for (int k = 0; k < r_; ++k)
    for (int j = 0; j < m_; ++j) {
      y_row_sum[k] += y[static_cast<std::size_t>(k) * m_ + j];
      y_row_abs[k] += std::abs(y[static_cast<std::size_t>(k) * m_ + j]);
    }
  std::mt19937_64 rng = stream(seed_, 2, 0);
  std::uniform_int_distribution<int> pick_row(0, n_ - 1), pick_col(0, m_ - 1);
  std::vector<std::vector<int>> sampled(n_);
  for (int s = 0; s < samples_; ++s) sampled[pick_row(rng)].push_back(pick_col(rng));
  ref->row.resize(n_);
  for (int i = 0; i < n_; ++i) {
    const std::vector<double> x = x_row(i);
    ProductReference::Sum& sum = ref->row[i];
    for (int k = 0; k < r_; ++k) {
      sum.want += x[k] * y_row_sum[k];
      sum.scale += std::abs(x[k]) * y_row_abs[k];
      x_col_sum[k] += x[k];
      x_col_abs[k] += std::abs(x[k]);
    }
    for (int j : sampled[i]) {
      ProductReference::Entry e{i, j, {}};
      for (int k = 0; k < r_; ++k) {
        e.sum.want += static_cast<long double>(x[k]) * y[static_cast<std::size_t>(k) * m_ + j];
        e.sum.scale +=
            std::abs(static_cast<long double>(x[k]) * y[static_cast<std::size_t>(k) * m_ + j]);
      }
      ref->sampled.push_back(e);
    }
  }
  ref->col.resize(m_);
  for (int j = 0; j < m_; ++j) {
    ProductReference::Sum& sum = ref->col[j];
    for (int k = 0; k < r_; ++k) {
      sum.want += x_col_sum[k] * y[static_cast<std::size_t>(k) * m_ + j];
      sum.scale += x_col_abs[k] * std::abs(y[static_cast<std::size_t>(k) * m_ + j]);
    }
    ref->total_want += sum.want;
    ref->total_scale += sum.scale;
  }
  return ref;
}

Verification Matmul::verify_against(ModuleStates& states, int steps_run,
                                    const SerialReference& reference) {
  // Each discrepancy is divided by the sum of the absolute terms, so that
  // 2 (r + max(n, m)) DBL_EPSILON bounds the rounding of a correct product.
  const auto& ref = reference_as<ProductReference>(reference, steps_run);
  Verification v;
  v.tolerance = 2.0 * (r_ + std::max(n_, m_)) * DBL_EPSILON;
  std::vector<double> z;
  try {
    z = gather_product(states);
  } catch (const std::exception& e) {
    v.detail = e.what();
    return v;
  }
  double worst = 0;
  auto check = [&](long double got, const ProductReference::Sum& want) {
    const double e = static_cast<double>(std::abs(got - want.want) / std::max(want.scale, 1e-300L));
    worst =
        std::isfinite(e) && std::isfinite(static_cast<double>(got)) ? std::max(worst, e) : INFINITY;
  };
  long double total = 0;
  for (int i = 0; i < n_; ++i) {
    long double got = 0;
    for (int j = 0; j < m_; ++j) got += z[static_cast<std::size_t>(i) * m_ + j];
    check(got, ref.row[i]);
    total += got;
  }
  for (const ProductReference::Entry& e : ref.sampled)
    check(z[static_cast<std::size_t>(e.row) * m_ + e.col], e.sum);
  for (int j = 0; j < m_; ++j) {
    long double got = 0;
    for (int i = 0; i < n_; ++i) got += z[static_cast<std::size_t>(i) * m_ + j];
    check(got, ref.col[j]);
  }
  const long double total_want = ref.total_want, total_scale = ref.total_scale;
  // Every step recomputed the same product: its checksum must be the reference total too.
  int bad_steps = static_cast<int>(checksum_.size() != static_cast<std::size_t>(steps_run));
  if (!bad_steps)
    for (double c : checksum_) {
      const double e = static_cast<double>(std::abs(c - total_want) / total_scale);
      bad_steps += !(e <= v.tolerance);
    }
  v.error = worst;
  v.checksum = static_cast<double>(total);
  v.reference_checksum = static_cast<double>(total_want);
  v.passed = steps_run > 0 && worst <= v.tolerance && bad_steps == 0;
  v.detail =
      "Z vs long-double dot products (" + std::to_string(samples_) + " sampled entries, all " +
      std::to_string(n_) + " row and " + std::to_string(m_) + " column sums): rel. error " +
      format_number(worst) + (worst <= v.tolerance ? " <= " : " > ") + format_number(v.tolerance) +
      "; step checksums " + (bad_steps ? std::to_string(bad_steps) + " differ" : "all match") +
      (steps_run > 0 ? "" : "; no step was run");
  return v;
}

}  // namespace lbb
