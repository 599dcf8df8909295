#include "workloads/synthetic_costs.h"

#include <cmath>
#include <stdexcept>

namespace lbb {

namespace {

const std::vector<std::string>& model_names() {
  static const std::vector<std::string> names = {"truncated_normal", "uniform", "lognormal",
                                                 "drift", "particles"};
  return names;
}

}  // namespace

WorkloadInfo SyntheticCosts::info() {
  WorkloadInfo info{
      "synthetic",
      "synthetic module costs for execution.executor: simulate (no kernel, nothing verified): "
      "truncated normal, uniform, lognormal, drifting, or particles crossing domains (Franklin & "
      "Govindan 1995's lambda and mu)",
      {
          int_param("modules", 64, "modules", 1, 1 << 24),
          string_param("model", "truncated_normal", "how module costs are drawn", model_names()),
          real_param("mean", 1e-3, "s: mean module cost at nominal speed", 1e-12, 1e6),
          real_param("sd", 0.5,
                     "relative spread: standard deviation / mean (truncated_normal: before "
                     "truncation; uniform: at most 0.577, so costs stay positive)",
                     0, 100),
          bool_param("redraw", false, "draw every module's cost afresh each step (else once)"),
          real_param("drift_sd", 0.05, "drift: sd of a module's log cost step per step", 0, 10),
          real_param("particles", 100, "particles: mean particles per cell", 0, 1e9),
          real_param("hump", 0.1, "particles: initial hump's sd, as a fraction of the modules",
                     1e-6, 1e6),
          real_param("lambda", 0, "particles: new particles arriving per cell per step (Poisson)",
                     0, 1e9),
          real_param("mu", 0.1, "particles: probability a particle crosses to a neighbour a step",
                     0, 1),
          real_param("particle_seconds", 1e-5, "particles: s per particle; a cell costs n + 1",
                     1e-15, 1e6),
          int_param("phases", 1,
                    "phases per step, balanced separately; phase k costs module m what module "
                    "(m + k modules / phases) mod modules costs",
                    1, 64),
          int_param("state_bytes", 65536, "B: bytes a migration of one module copies", 0,
                    std::int64_t(1) << 40),
          int_param("seed", 1, "seed of every draw", 0),
          string_param("dependencies", "none",
                       "chain: a module's step needs its neighbours' previous step (asynchronous "
                       "simulation); none: bulk-synchronous steps only",
                       {"none", "chain"}),
          real_param("exchange_bytes", 0,
                     "chain: B a module reads of each neighbour's output per phase (the bytes "
                     "on an exported LBDatafile's edges)",
                     0, 1e12),
      },
      [](const Params& p) { return std::make_unique<SyntheticCosts>(p); },
      [](const Params& p) { return static_cast<int>(p.integer("modules")); },
  };
  // 96 bytes a module and 32 more a phase: simulated runs of 2^20 modules peaked at 97, 174 and
  // 456 bytes a module with 1, 4 and 16 phases (less the process's 22 MB); 2^24 modules of 64
  // phases would need about 36 GB.
  info.state_estimate = [](const Params& p, int) {
    return static_cast<double>(p.integer("modules")) *
           (96.0 + 32.0 * static_cast<double>(p.integer("phases")));
  };
  info.simulated_only = true;
  info.communicates = [](const Params& p) { return p.text("dependencies") == "chain"; };
  return info;
}

SyntheticCosts::SyntheticCosts(const Params& p)
    : mean_(p.real("mean")),
      sd_(p.real("sd")),
      drift_sd_(p.real("drift_sd")),
      lambda_(p.real("lambda")),
      mu_(p.real("mu")),
      particle_seconds_(p.real("particle_seconds")),
      redraw_(p.boolean("redraw")),
      chain_(p.text("dependencies") == "chain"),
      state_bytes_(static_cast<std::size_t>(p.integer("state_bytes"))),
      exchange_bytes_(p.real("exchange_bytes")),
      rng_(static_cast<std::uint64_t>(p.integer("seed"))),
      phases_(static_cast<int>(p.integer("phases"))) {
  const std::string name = p.text("model");
  int k = 0;
  while (k < static_cast<int>(model_names().size()) && model_names()[k] != name) ++k;
  if (k == static_cast<int>(model_names().size()))
    throw std::invalid_argument("synthetic: unknown model " + name);
  model_ = static_cast<Model>(k);
  if (model_ == Model::kUniform && sd_ > 1 / std::sqrt(3.0))
    throw std::invalid_argument("synthetic: a uniform model's sd must be at most 0.577");
  const int M = static_cast<int>(p.integer("modules"));
  cost_.assign(M, mean_);
  if (model_ == Model::kParticles) {
    // A Gaussian hump over the cells, mean `particles` per cell over the whole chain.
    const double width = p.real("hump") * M, centre = 0.5 * (M - 1);
    std::vector<double> density(M);
    double sum = 0;
    for (int m = 0; m < M; ++m)
      sum += density[m] = std::exp(-0.5 * std::pow((m - centre) / width, 2));
    particles_.resize(M);
    for (int m = 0; m < M; ++m) {
      std::poisson_distribution<std::int64_t> n(p.real("particles") * M * density[m] / sum);
      particles_[m] = density[m] > 0 ? n(rng_) : 0;
      cost_[m] = static_cast<double>(particles_[m] + 1) * particle_seconds_;
    }
  } else {
    draw(cost_);
  }
  first_ = cost_;
}

// One draw of every module's cost, mean mean_ and standard deviation sd_ x mean_.
void SyntheticCosts::draw(std::vector<double>& out) {
  switch (model_) {
    case Model::kUniform: {
      const double half = std::sqrt(3.0) * sd_ * mean_;
      std::uniform_real_distribution<double> u(mean_ - half, mean_ + half);
      for (double& c : out) c = u(rng_);
      break;
    }
    case Model::kLognormal: {
      const double s2 = std::log1p(sd_ * sd_);
      std::lognormal_distribution<double> d(std::log(mean_) - 0.5 * s2, std::sqrt(s2));
      for (double& c : out) c = d(rng_);
      break;
    }
    default: {  // truncated normal (drift starts from it), truncation by rejection
      if (sd_ <= 0) break;
      std::normal_distribution<double> d(mean_, sd_ * mean_);
      for (double& c : out) do
          c = d(rng_);
        while (c <= 0);
    }
  }
}

const std::vector<double>& SyntheticCosts::step_costs(int step) {
  if (step != next_step_)
    throw std::logic_error("synthetic costs: step " + std::to_string(step) + " asked for before " +
                           std::to_string(next_step_));
  if (next_step_++ == 0) return cost_;  // the first step's are the predicted weights
  switch (model_) {
    case Model::kDrift: {
      std::normal_distribution<double> step_sd(0.0, drift_sd_);
      for (double& c : cost_) c *= std::exp(step_sd(rng_));
      break;
    }
    case Model::kParticles:
      advance_particles();
      break;
    default:
      if (redraw_) draw(cost_);
  }
  return cost_;
}

// Franklin & Govindan 1995, eq. 2 per cell: w(k+1) = w(k) - departures + arrivals, departures
// Binomial(w, mu) split evenly between the two neighbours (reflected at the chain's ends),
// plus Poisson(lambda) new particles.
void SyntheticCosts::advance_particles() {
  const int M = module_count();
  std::vector<std::int64_t> next(particles_);
  std::poisson_distribution<std::int64_t> arrive(lambda_ > 0 ? lambda_ : 1.0);
  for (int m = 0; m < M; ++m) {
    std::binomial_distribution<std::int64_t> leave(particles_[m], mu_);
    const std::int64_t out = mu_ > 0 ? leave(rng_) : 0;
    std::binomial_distribution<std::int64_t> half(out, 0.5);
    const std::int64_t left = out > 0 ? half(rng_) : 0;
    next[m] -= out;
    next[m > 0 ? m - 1 : std::min(1, M - 1)] += left;
    next[m + 1 < M ? m + 1 : std::max(M - 2, 0)] += out - left;
    if (lambda_ > 0) next[m] += arrive(rng_);
  }
  particles_ = std::move(next);
  for (int m = 0; m < M; ++m) cost_[m] = static_cast<double>(particles_[m] + 1) * particle_seconds_;
}

void SyntheticCosts::shift(const std::vector<double>& in, int phase,
                           std::vector<double>& out) const {
  const std::size_t M = in.size(), offset = M * static_cast<std::size_t>(phase) / phases_;
  out.resize(M);
  for (std::size_t m = 0; m < M; ++m) out[m] = in[(m + offset) % M];
}

const std::vector<double>& SyntheticCosts::phase_costs(int phase) {
  if (phase == 0) return cost_;
  shift(cost_, phase, phase_cost_);
  return phase_cost_;
}

std::vector<double> SyntheticCosts::predicted_weights() const {
  std::vector<double> all(first_.size(), 0.0);
  for (int ph = 0; ph < phases_; ++ph) {
    const std::vector<double> w = predicted_phase_weights(ph);
    for (std::size_t m = 0; m < all.size(); ++m) all[m] += w[m];
  }
  return all;
}

std::vector<double> SyntheticCosts::predicted_phase_weights(int phase) const {
  std::vector<double> w;
  shift(first_, phase, w);
  return w;
}

std::optional<ModuleGraph> SyntheticCosts::dependencies() const {
  if (!chain_) return std::nullopt;
  return ModuleGraph::chain(module_count());
}

void SyntheticCosts::run_module(int, int, int, std::span<std::byte>) {
  throw std::logic_error(
      "the synthetic workload has no kernel: run it with execution.executor: simulate");
}

Verification SyntheticCosts::verify_against(ModuleStates&, int, const SerialReference&) {
  Verification v;
  v.detail = "synthetic costs: no kernel ran, nothing to verify";
  return v;
}

}  // namespace lbb
