#include "workloads/block_substitution.h"

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

#include "core/text.h"
#include "core/weight_distribution.h"
#include "kernels/block_substitution.h"
#include "workloads/vector_module_states.h"

namespace lbb {

namespace {

// Module state: this header, then the band factor, b, the iterate x and a work vector.
struct BlockHeader {
  std::int32_t lines;
  std::int32_t width;
  std::int32_t module;
  std::int32_t reserved;
};

struct BlockView {
  BlockHeader* header;
  std::span<double> factor, b, x, work;
};

BlockView view_of(std::span<std::byte> state) {
  auto* h = reinterpret_cast<BlockHeader*>(state.data());
  const std::size_t n = static_cast<std::size_t>(h->lines) * h->width;
  auto* d = reinterpret_cast<double*>(state.data() + sizeof(BlockHeader));
  const std::size_t band = kernels::band_storage(static_cast<int>(n), h->width);
  return {h, {d, band}, {d + band, n}, {d + band + n, n}, {d + band + 2 * n, n}};
}

}  // namespace

BlockJacobiSweep::BlockJacobiSweep(int blocks, int width)
    : blocks_(blocks),
      width_(width),
      lines_(static_cast<std::size_t>(2) * blocks * 2 * width, 0.0),
      residual_sq_(blocks) {}

std::span<double> BlockJacobiSweep::line(int step, int block, int which) {
  const std::size_t parity = static_cast<std::size_t>(step + 1) & 1u;
  const std::size_t offset = ((parity * blocks_ + block) * 2 + which) * width_;
  return {lines_.data() + offset, static_cast<std::size_t>(width_)};
}

std::span<double> BlockJacobiSweep::top(int step, int block) {
  return line(step, block, 0);
}
std::span<double> BlockJacobiSweep::bottom(int step, int block) {
  return line(step, block, 1);
}

double BlockJacobiSweep::residual_norm(int step) {
  double sum = 0;
  for (int b = 0; b < blocks_; ++b) sum += residual_sq_.at(step, b);
  return std::sqrt(sum);
}

WorkloadInfo BlockSubstitution::info() {
  WorkloadInfo info{
      "block_substitution",
      "block Jacobi on a 2-D Poisson problem cut into a chain of blocks of non-uniform heights; "
      "each step a banded forward and back substitution per block (Iqbal, Saltz & Bokhari 1986)",
      {
          int_param("blocks", 64, "modules: diagonal blocks", 1, 1 << 20),
          int_param("width", 64, "grid columns (the band half-width of every block)", 1, 4096),
          real_param("mean_lines", 8.0, "mean grid lines per block", 1, 1e6),
          real_param("sd", 0.5, "standard deviation of block weights before truncation (mean 1)", 0,
                     100),
          string_param("distribution", "truncated_normal", "how block heights are drawn",
                       weight_distribution_names()),
          int_param("seed", 1, "seed of block heights and of the right-hand side", 0),
      },
      [](const Params& p) { return std::make_unique<BlockSubstitution>(p); },
      [](const Params& p) { return static_cast<int>(p.integer("blocks")); },
      nullptr,
      [](const Params& p, int) {
        // N unknowns: states and their reference copy (a band of width + 1 and 3 vectors per
        // unknown each), the whole grid's band at verification, ~4 vectors of N, and a factored
        // band per distinct block height (all of them, at worst).
        const double width = static_cast<double>(p.integer("width"));
        const double n = static_cast<double>(p.integer("blocks")) * p.real("mean_lines") * width;
        kernels::band_order(static_cast<std::size_t>(n / width), p.integer("width"));
        return sizeof(double) * n * (4 * width + 12);
      },
  };
  info.communicates = [](const Params&) { return true; };  // the chain of blocks
  info.has_coordinates = [](const Params&) { return true; };
  return info;
}

BlockSubstitution::BlockSubstitution(const Params& params)
    : width_(static_cast<int>(params.integer("width"))),
      sweep_(static_cast<int>(params.integer("blocks")), width_) {
  const int blocks = static_cast<int>(params.integer("blocks"));
  const auto seed = static_cast<std::uint64_t>(params.integer("seed"));
  auto dist = parse_weight_distribution(params.text("distribution"));
  if (!dist) throw std::invalid_argument("unknown distribution " + params.text("distribution"));
  const auto weights = draw_weights(*dist, blocks, params.real("sd"), seed);
  const double mean_lines = params.real("mean_lines");
  lines_.resize(blocks);
  first_.resize(blocks + 1, 0);
  for (int i = 0; i < blocks; ++i) {
    lines_[i] = std::max(1, static_cast<int>(std::lround(mean_lines * weights[i])));
    kernels::band_order(lines_[i], width_);  // throws when a block outgrows LAPACK's int
    first_[i + 1] = first_[i] + static_cast<std::size_t>(lines_[i]) * width_;
    factors_.try_emplace(lines_[i]);
  }
  kernels::band_order(first_.back() / width_, width_);  // the whole grid, solved at verify
  std::mt19937_64 rng(seed ^ 0x9e3779b97f4a7c15ull);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  b_.resize(first_.back());
  for (auto& v : b_) v = uniform(rng);
}

std::vector<double> BlockSubstitution::module_coords() const {
  std::vector<double> c(lines_.size());
  for (std::size_t i = 0; i < lines_.size(); ++i)
    c[i] = 0.5 * static_cast<double>(first_[i] + first_[i + 1]) / width_;
  return c;
}

std::vector<double> BlockSubstitution::predicted_weights() const {
  // Substitution costs ~4 n kd flops with n = lines * width and kd = width: linear in lines.
  return {lines_.begin(), lines_.end()};
}

std::optional<ModuleGraph> BlockSubstitution::dependencies() const {
  return ModuleGraph::chain(module_count());
}

std::size_t BlockSubstitution::state_bytes(int module) const {
  const int n = lines_[module] * width_;
  return sizeof(BlockHeader) +
         sizeof(double) * (kernels::band_storage(n, width_) + 3 * static_cast<std::size_t>(n));
}

void BlockSubstitution::init_state(int module, std::span<std::byte> state) const {
  auto* h = reinterpret_cast<BlockHeader*>(state.data());
  *h = {lines_[module], width_, module, 0};
  BlockView v = view_of(state);
  const HeightFactor& f = factor_of(lines_[module]);
  if (f.info != 0)
    throw std::runtime_error("dpbtrf failed on block " + std::to_string(module) + ", info " +
                             std::to_string(f.info));
  std::memcpy(v.factor.data(), f.band.data(), v.factor.size_bytes());
  std::memcpy(v.b.data(), b_.data() + first_[module], v.b.size_bytes());
  std::fill(v.x.begin(), v.x.end(), 0.0);
  std::fill(v.work.begin(), v.work.end(), 0.0);
}

const BlockSubstitution::HeightFactor& BlockSubstitution::factor_of(int lines) const {
  HeightFactor& f = factors_.find(lines)->second;  // a lookup: safe beside other threads' own
  std::call_once(f.made, [&] {
    const int n = lines * width_;
    f.band.resize(kernels::band_storage(n, width_));
    kernels::poisson_block_band(lines, width_, f.band);
    f.info = kernels::band_cholesky(n, width_, f.band);
  });
  return f;
}

void BlockSubstitution::step_block(BlockJacobiSweep& sweep, int module, int step,
                                   std::span<std::byte> state) const {
  BlockView v = view_of(state);
  const int lines = v.header->lines;
  const int n = lines * width_;
  const int last = module_count() - 1;
  std::span<const double> above, below;
  if (module > 0) above = sweep.bottom(step - 1, module - 1);
  if (module < last) below = sweep.top(step - 1, module + 1);
  kernels::coupled_rhs(lines, width_, v.b, above, below, v.work);
  sweep.residual_sq(step, module) = kernels::block_residual_sq(lines, width_, v.x, v.work);
  if (int info = kernels::band_solve(n, width_, v.factor, v.work); info != 0)
    throw std::runtime_error("dpbtrs failed on block " + std::to_string(module));
  std::memcpy(v.x.data(), v.work.data(), v.x.size_bytes());
  std::memcpy(sweep.top(step, module).data(), v.x.data(), sizeof(double) * width_);
  std::memcpy(sweep.bottom(step, module).data(), v.x.data() + (n - width_),
              sizeof(double) * width_);
}

void BlockSubstitution::run_module(int module, int step, int /*phase*/,
                                   std::span<std::byte> state) {
  step_block(sweep_, module, step, state);
}

namespace {
double norm2(std::span<const double> v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}
}  // namespace

double BlockSubstitution::exchanged_bytes(int from, int to, int, int) const {
  return from == to + 1 || from + 1 == to ? static_cast<double>(sizeof(double) * width_) : 0.0;
}

// The boundary lines the neighbours read next step, and the block's residual.
bool BlockSubstitution::phase_outputs(int module, int step, int,
                                      std::vector<std::span<std::byte>>& out) {
  out.push_back(std::as_writable_bytes(sweep_.top(step, module)));
  out.push_back(std::as_writable_bytes(sweep_.bottom(step, module)));
  out.push_back(std::as_writable_bytes(std::span(&sweep_.residual_sq(step, module), 1)));
  return true;
}

void BlockSubstitution::finish_step(int step, ModuleStates& /*states*/) {
  // The residual of the iterate each block started the step from: ||b - A x(step)|| / ||b||.
  residual_history_.push_back(sweep_.residual_norm(step) / norm2(b_));
}

std::vector<StepMetric> BlockSubstitution::step_metrics() const {
  return {{"residual", "relative residual ||b - A x|| / ||b|| of the iterate entering the step"}};
}

std::vector<double> BlockSubstitution::step_metric_values(int step) const {
  return {residual_history_.at(step)};
}

std::span<double> BlockSubstitution::iterate(std::span<std::byte> state) {
  return view_of(state).x;
}

std::span<double> BlockSubstitution::factor(std::span<std::byte> state) {
  return view_of(state).factor;
}

std::vector<double> BlockSubstitution::gather_solution(ModuleStates& states) const {
  std::vector<double> x(first_.back());
  for (int m = 0; m < module_count(); ++m) {
    BlockView v = view_of(states.state(m));
    if (v.header->module != m || v.header->lines != lines_[m] || v.header->width != width_)
      throw std::runtime_error("state of module " + std::to_string(m) + " has a bad header");
    std::memcpy(x.data() + first_[m], v.x.data(), v.x.size_bytes());
  }
  return x;
}

namespace {

// The serial block Jacobi iteration of a run's problem, and how its error fell.
struct JacobiReference : SerialReference {
  using SerialReference::SerialReference;
  std::vector<double> x;                     // the final iterate
  std::vector<double> history;               // relative residual per step
  double energy_first = 0, energy_last = 0;  // A-norm squared of the error, before and after
  bool energy_falls = false;
};

}  // namespace

std::shared_ptr<const SerialReference> BlockSubstitution::reference(int steps_run) const {
  // The same iteration from the same initial states in private buffers.
  auto ref = std::make_shared<JacobiReference>(steps_run);
  const int blocks = module_count();
  BlockJacobiSweep sweep(blocks, width_);
  VectorModuleStates ref_states(*this);

  // The exact solution, by one banded Cholesky of the whole operator, to follow the error.
  const int total_lines = static_cast<int>(first_.back() / width_);
  const int n = static_cast<int>(first_.back());
  std::vector<double> band(kernels::band_storage(n, width_)), exact = b_;
  kernels::poisson_block_band(total_lines, width_, band);
  const bool exact_ok = kernels::band_cholesky(n, width_, band) == 0 &&
                        kernels::band_solve(n, width_, band, exact) == 0;
  band = {};
  auto error_energy = [&](const std::vector<double>& x) {
    std::vector<double> e(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) e[i] = x[i] - exact[i];
    return kernels::poisson_energy(total_lines, width_, e);
  };

  // Block Jacobi with SPD A and SPD 2D - A (here D + L + L^T is A with the block couplings'
  // signs flipped, similar to A) shrinks the A-norm of the error at every step
  // (Householder-John); the residual's 2-norm need not fall monotonically.
  std::vector<double> energy{error_energy(gather_solution(ref_states))};
  for (int s = 0; s < steps_run; ++s) {
    for (int m = 0; m < blocks; ++m) step_block(sweep, m, s, ref_states.state(m));
    ref->history.push_back(sweep.residual_norm(s) / norm2(b_));
    energy.push_back(error_energy(gather_solution(ref_states)));
  }
  // Below 1e-12 of the solution's A-norm the error is rounding (both x and the direct solve
  // carry it), and its A-norm no longer falls monotonically: long converged runs stop there.
  const double rounding_floor = 1e-24 * kernels::poisson_energy(total_lines, width_, exact);
  bool energy_falls = exact_ok && energy.back() < energy.front();
  for (std::size_t s = 1; s < energy.size(); ++s)
    energy_falls &= energy[s] <= energy[s - 1] * (1 + 1e-9) + rounding_floor + 1e-300;
  ref->energy_first = energy.front();
  ref->energy_last = energy.back();
  ref->energy_falls = energy_falls;
  ref->x = gather_solution(ref_states);
  return ref;
}

Verification BlockSubstitution::verify_against(ModuleStates& states, int steps_run,
                                               const SerialReference& reference) {
  const auto& ref = reference_as<JacobiReference>(reference, steps_run);
  const std::vector<double>& x_ref = ref.x;
  const std::vector<double>& ref_history = ref.history;
  const bool energy_falls = ref.energy_falls;
  Verification v;
  v.tolerance = 1e-12;
  std::vector<double> x;
  try {
    x = gather_solution(states);
  } catch (const std::exception& e) {
    v.detail = e.what();
    return v;
  }
  double diff = 0, ref_norm = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    diff += (x[i] - x_ref[i]) * (x[i] - x_ref[i]);
    ref_norm += x_ref[i] * x_ref[i];
    v.checksum += x[i];
    v.reference_checksum += x_ref[i];
  }
  v.error = std::sqrt(diff) / std::max(std::sqrt(ref_norm), 1e-300);
  if (!std::isfinite(v.error)) v.error = INFINITY;

  double history_error = 0;
  const bool history_complete = residual_history_.size() == static_cast<std::size_t>(steps_run);
  if (history_complete)
    for (int s = 0; s < steps_run; ++s)
      history_error = std::max(history_error, std::abs(residual_history_[s] - ref_history[s]) /
                                                  std::max(ref_history[s], 1e-300));
  const bool history_ok = history_complete && history_error <= 1e-9;
  v.passed = v.error <= v.tolerance && history_ok && energy_falls && std::isfinite(v.checksum);
  v.detail = "final iterate vs serial block Jacobi: rel. error " + format_number(v.error) +
             "; A-norm of the error " + format_number(std::sqrt(ref.energy_first)) + " -> " +
             format_number(std::sqrt(ref.energy_last)) +
             (energy_falls ? " (falls every step)" : " (does NOT fall every step)") +
             "; residual history " + (history_ok ? "matches" : "differs");
  return v;
}

}  // namespace lbb
