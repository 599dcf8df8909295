#include "workloads/trfd.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

#include "core/text.h"
#include "kernels/trfd.h"

namespace lbb {

namespace {

using kernels::pair_count;
using kernels::pair_index;

// Module state: this header, then the rows [first_pair, first_pair + rows) of the major array,
// pair_count doubles each. `stage` says what the rows hold: the symmetric initial integrals (0),
// the half-transformed rows (1), or the lower triangle pq <= rs of the transformed rows (2).
struct TrfdHeader {
  std::int32_t module;
  std::int32_t stage;
  std::int64_t first_pair;
  std::int64_t rows;
  std::int64_t pairs;
};

TrfdHeader& header_of(std::span<std::byte> state) {
  return *reinterpret_cast<TrfdHeader*>(state.data());
}
double* rows_of(std::span<std::byte> state) {
  return reinterpret_cast<double*>(state.data() + sizeof(TrfdHeader));
}

// Multiplicity of the packed entry (pq|rs) in the n^4 tensor.
double multiplicity(int p, int q, int r, int s) {
  return (p != q ? 2.0 : 1.0) * (r != s ? 2.0 : 1.0) *
         (pair_index(p, q) != pair_index(r, s) ? 2.0 : 1.0);
}

}  // namespace

TrfdExchange::TrfdExchange(int n, int modules)
    : half(pair_count(n) * pair_count(n), 0.0),
      full(pair_count(n) * pair_count(n), 0.0),
      norm_sq(modules, 0.0) {}

WorkloadInfo Trfd::info() {
  WorkloadInfo info{
      "trfd",
      "TRFD-like two-electron integral transformation: two half-transformation loops with "
      "triangular bounds, balanced separately; modules are blocks of outer iterations "
      "(Perfect benchmarks; Zaki, Li & Parthasarathy 1997)",
      {
          int_param("n", 40, "orbitals; the major array is n(n+1)/2 x n(n+1)/2", 2, 160),
          int_param("iterations_per_module", 1, "outer-loop iterations (orbitals) per module", 1,
                    160),
          int_param("seed", 1, "seed of the integrals and of the transformation matrix", 0),
      },
      [](const Params& p) { return std::make_unique<Trfd>(p); },
      [](const Params& p) {
        return static_cast<int>((p.integer("n") + p.integer("iterations_per_module") - 1) /
                                p.integer("iterations_per_module"));
      },
      nullptr,
      [](const Params& p, int) {
        // The pairs x pairs major array: in the states, the input and the serial reference.
        const double n = static_cast<double>(p.integer("n"));
        const double pairs = n * (n + 1) / 2;
        return sizeof(double) * 3 * pairs * pairs;
      },
  };
  info.has_coordinates = [](const Params&) { return true; };
  return info;
}

Trfd::Trfd(const Params& params)
    : n_(static_cast<int>(params.integer("n"))), pairs_(pair_count(n_)), exchange_(1, 1) {
  const int per = static_cast<int>(params.integer("iterations_per_module"));
  for (int i = 0; i < n_; i += per) first_.push_back(i);
  first_.push_back(n_);
  std::mt19937_64 rng(static_cast<std::uint64_t>(params.integer("seed")));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  // Synthetic integrals with the permutational symmetry (ij|kl) = (ji|kl) = (ij|lk) = (kl|ij)
  // (packing gives the first two), decaying away from the diagonal pairs as real ones do.
  integrals_.assign(pairs_ * pairs_, 0.0);
  for (int i = 0; i < n_; ++i)
    for (int j = 0; j <= i; ++j)
      for (int k = 0; k < n_; ++k)
        for (int l = 0; l <= k; ++l) {
          const std::size_t ij = pair_index(i, j), kl = pair_index(k, l);
          if (kl > ij) continue;
          const double v = u(rng) * std::exp(-0.1 * ((i - j) + (k - l)));
          integrals_[ij * pairs_ + kl] = v;
          integrals_[kl * pairs_ + ij] = v;
        }
  c_.resize(static_cast<std::size_t>(n_) * n_);
  for (double& v : c_) v = u(rng);
  kernels::orthogonalize(n_, c_);
  exchange_ = TrfdExchange(n_, module_count());
}

std::vector<double> Trfd::module_coords() const {
  std::vector<double> c(module_count());
  for (int m = 0; m < module_count(); ++m) c[m] = 0.5 * (first_[m] + first_[m + 1]);
  return c;
}

std::vector<double> Trfd::predicted_phase_weights(int phase) const {
  // Multiply-adds of the loops (docs/workloads.md). Phase 0, outer iteration i: i + 1 rows,
  // each n^3 (quarter 1) + n pair_count (quarter 2) + pair_count (filling the row).
  // Phase 1, outer iteration r: pairs rs, s <= r, each (r + 1) n^2 (quarter 3) + n (rs + 1)
  // (quarter 4) + 2 pair_count (gathering the column, storing the row).
  const double n = n_, np = static_cast<double>(pairs_);
  std::vector<double> w(module_count(), 0.0);
  for (int m = 0; m < module_count(); ++m)
    for (int i = first_[m]; i < first_[m + 1]; ++i) {
      if (phase == 0) {
        w[m] += (i + 1) * (n * n * n + n * np + np);
      } else {
        for (int s = 0; s <= i; ++s)
          w[m] += (i + 1) * n * n + n * (static_cast<double>(pair_index(i, s)) + 1) + 2 * np;
      }
    }
  return w;
}

std::vector<double> Trfd::predicted_weights() const {
  std::vector<double> w = predicted_phase_weights(0);
  const std::vector<double> w1 = predicted_phase_weights(1);
  for (std::size_t m = 0; m < w.size(); ++m) w[m] += w1[m];
  return w;
}

std::size_t Trfd::rows(int module) const {
  return pair_count(first_[module + 1]) - pair_count(first_[module]);
}

std::size_t Trfd::state_bytes(int module) const {
  return sizeof(TrfdHeader) + sizeof(double) * rows(module) * pairs_;
}

// Every module reads of every other: the phases read transposes.
std::optional<ModuleGraph> Trfd::exchange_graph() const {
  std::vector<std::vector<int>> all(module_count());
  for (int m = 0; m < module_count(); ++m)
    for (int k = 0; k < module_count(); ++k)
      if (k != m) all[m].push_back(k);
  return ModuleGraph(all);
}

// What run_phase reads of the rows `from` wrote: in phase 1, the column rs of every row ij,
// so rows(from) doubles per rs of `to`; in phase 0 from the second step on, (kl|ij) for each
// of its rows ij and every kl > ij, the upper part of each row, which the rows of every later
// module hold (those of phase 1 of the step before).
double Trfd::exchanged_bytes(int from, int to, int step, int phase) const {
  if (from == to || (phase == 0 && (step == 0 || from < to))) return 0;
  return static_cast<double>(sizeof(double) * rows(from) * rows(to));
}

void Trfd::init_state(int module, std::span<std::byte> state) const {
  const std::size_t first = pair_count(first_[module]);
  const std::size_t rows = pair_count(first_[module + 1]) - first;
  header_of(state) = {module, 0, static_cast<std::int64_t>(first), static_cast<std::int64_t>(rows),
                      static_cast<std::int64_t>(pairs_)};
  std::memcpy(rows_of(state), integrals_.data() + first * pairs_, sizeof(double) * rows * pairs_);
}

void Trfd::run_phase(TrfdExchange& ex, int module, int phase, std::span<std::byte> state) const {
  TrfdHeader& h = header_of(state);
  const std::size_t first = pair_count(first_[module]);
  if (h.module != module || h.first_pair != static_cast<std::int64_t>(first) ||
      h.pairs != static_cast<std::int64_t>(pairs_) || (phase == 0 ? h.stage == 1 : h.stage != 1))
    throw std::runtime_error("trfd: state of module " + std::to_string(module) +
                             " is not ready for phase " + std::to_string(phase));
  double* rows = rows_of(state);
  const std::size_t np = pairs_;
  if (phase == 0) {
    // First half-transformation loop: outer i over the block, inner j <= i.
    std::vector<double> work(static_cast<std::size_t>(n_) * n_);
    for (int i = first_[module]; i < first_[module + 1]; ++i)
      for (int j = 0; j <= i; ++j) {
        const std::size_t ij = pair_index(i, j);
        std::span<double> row(rows + (ij - first) * np, np);
        // After a step the row holds only kl <= ij: the rest is (kl|ij), in row kl.
        if (h.stage == 2)
          for (std::size_t kl = ij + 1; kl < np; ++kl) row[kl] = ex.full[kl * np + ij];
        kernels::first_half_transform(n_, c_, row, work);
        std::memcpy(ex.half.data() + ij * np, row.data(), sizeof(double) * np);
      }
    h.stage = 1;
  } else {
    // Second half-transformation loop: outer r over the block, inner s <= r, innermost pq <= rs.
    std::vector<double> column(np), work(static_cast<std::size_t>(n_) * n_);
    double norm_sq = 0;
    for (int r = first_[module]; r < first_[module + 1]; ++r)
      for (int s = 0; s <= r; ++s) {
        const std::size_t rs = pair_index(r, s);
        for (std::size_t ij = 0; ij < np; ++ij) column[ij] = ex.half[ij * np + rs];
        std::span<double> row(rows + (rs - first) * np, np);
        kernels::second_half_transform(n_, r, s, c_, column, row, work);
        std::fill(row.begin() + rs + 1, row.end(), 0.0);
        std::memcpy(ex.full.data() + rs * np, row.data(), sizeof(double) * (rs + 1));
        for (int p = 0; p <= r; ++p)
          for (int q = 0; q <= (p < r ? p : s); ++q) {
            const double v = row[pair_index(p, q)];
            norm_sq += multiplicity(p, q, r, s) * v * v;
          }
      }
    ex.norm_sq[module] = norm_sq;
    h.stage = 2;
  }
}

void Trfd::run_module(int module, int /*step*/, int phase, std::span<std::byte> state) {
  run_phase(exchange_, module, phase, state);
}

// Phase 0 writes the module's rows of the half-transformed array, phase 1 its rows of the
// transformed one and its share of the norm: the transposes the other modules read next.
bool Trfd::phase_outputs(int module, int, int phase, std::vector<std::span<std::byte>>& out) {
  const std::size_t first = pair_count(first_[module]), last = pair_count(first_[module + 1]);
  std::vector<double>& rows = phase == 0 ? exchange_.half : exchange_.full;
  out.push_back(
      std::as_writable_bytes(std::span(rows).subspan(first * pairs_, (last - first) * pairs_)));
  if (phase == 1) out.push_back(std::as_writable_bytes(std::span(&exchange_.norm_sq[module], 1)));
  return true;
}

void Trfd::finish_step(int /*step*/, ModuleStates& /*states*/) {
  double sum = 0;
  for (double v : exchange_.norm_sq) sum += v;
  exchange_.norm.push_back(std::sqrt(sum));
}

std::vector<StepMetric> Trfd::step_metrics() const {
  return {{"norm", "Frobenius norm of the transformed n^4 tensor (C is orthogonal: invariant)"}};
}

std::vector<double> Trfd::step_metric_values(int step) const {
  return {exchange_.norm.at(step)};
}

double Trfd::tensor_norm_sq_of_initial() const {
  double sum = 0;
  for (int r = 0; r < n_; ++r)
    for (int s = 0; s <= r; ++s)
      for (int p = 0; p <= r; ++p)
        for (int q = 0; q <= (p < r ? p : s); ++q) {
          const double v = integrals_[pair_index(r, s) * pairs_ + pair_index(p, q)];
          sum += multiplicity(p, q, r, s) * v * v;
        }
  return sum;
}

std::vector<double> Trfd::gather_lower(ModuleStates& states) const {
  std::vector<double> lower(pairs_ * pairs_, 0.0);
  for (int m = 0; m < module_count(); ++m) {
    std::span<std::byte> s = states.state(m);
    if (s.size() != state_bytes(m))
      throw std::runtime_error("state of module " + std::to_string(m) + " has a bad size");
    const TrfdHeader& h = header_of(s);
    const std::size_t first = pair_count(first_[m]);
    if (h.module != m || h.first_pair != static_cast<std::int64_t>(first) ||
        h.pairs != static_cast<std::int64_t>(pairs_) || h.stage == 1)
      throw std::runtime_error("state of module " + std::to_string(m) +
                               " has a bad header or is half transformed");
    const double* rows = rows_of(s);
    for (std::int64_t k = 0; k < h.rows; ++k) {
      const std::size_t rs = first + k;
      std::memcpy(lower.data() + rs * pairs_, rows + k * pairs_, sizeof(double) * (rs + 1));
    }
  }
  return lower;
}

namespace {

// S steps by C are one transformation by C^S: the plain n^4 transformation's result.
struct TransformReference : SerialReference {
  using SerialReference::SerialReference;
  std::vector<double> expected;  // pairs x pairs
  double norm0 = 0;              // the initial tensor's norm, which every step keeps
};

}  // namespace

std::shared_ptr<const SerialReference> Trfd::reference(int steps_run) const {
  // C^S, then the plain transformation (unpacked tensor, four dgemm quarter-transformations).
  auto ref = std::make_shared<TransformReference>(steps_run);
  const int n = n_;
  std::vector<double> power(static_cast<std::size_t>(n) * n, 0.0), next(power.size());
  for (int i = 0; i < n; ++i) power[static_cast<std::size_t>(i) * n + i] = 1.0;
  for (int s = 0; s < steps_run; ++s) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, power.data(), n, c_.data(),
                n, 0.0, next.data(), n);
    power.swap(next);
  }
  ref->expected.resize(pairs_ * pairs_);
  kernels::plain_transform(n, power, integrals_, ref->expected);
  ref->norm0 = std::sqrt(tensor_norm_sq_of_initial());
  return ref;
}

Verification Trfd::verify_against(ModuleStates& states, int steps_run,
                                  const SerialReference& reference) {
  const auto& ref = reference_as<TransformReference>(reference, steps_run);
  const std::vector<double>& expected = ref.expected;
  Verification v;
  v.tolerance = 1e-12;
  std::vector<double> lower;
  try {
    lower = gather_lower(states);
  } catch (const std::exception& e) {
    v.detail = e.what();
    return v;
  }
  double diff = 0, scale = 0;
  for (std::size_t rs = 0; rs < pairs_; ++rs)
    for (std::size_t pq = 0; pq <= rs; ++pq) {
      const double got = lower[rs * pairs_ + pq], want = expected[rs * pairs_ + pq];
      diff = std::max(diff, std::abs(got - want));
      scale = std::max(scale, std::abs(want));
      v.checksum += got;
      v.reference_checksum += want;
    }
  v.error = diff / std::max(scale, 1e-300);
  if (!std::isfinite(v.error) || !std::isfinite(v.checksum)) v.error = INFINITY;
  // The transformation is orthogonal: every step must keep the tensor's norm.
  const double norm0 = ref.norm0;
  double norm_drift = 0;
  const bool history_complete = exchange_.norm.size() == static_cast<std::size_t>(steps_run);
  for (double nrm : exchange_.norm) norm_drift = std::max(norm_drift, std::abs(nrm / norm0 - 1));
  const bool norm_ok = history_complete && norm_drift <= v.tolerance;
  v.passed = v.error <= v.tolerance && norm_ok;
  v.detail = "lower triangle vs plain n^4 transformation by C^" + std::to_string(steps_run) +
             ": rel. error " + format_number(v.error) + (v.error <= v.tolerance ? " <= " : " > ") +
             format_number(v.tolerance) + "; tensor norm per step " +
             (history_complete ? "kept to " + format_number(norm_drift) : "history incomplete");
  return v;
}

}  // namespace lbb
