#pragma once
// Synthetic module costs for the simulator (`execution.executor: simulate`): no kernel, no state
// worth copying beyond its declared size, nothing to verify. Each step yields every module's cost
// in seconds at nominal speed (speed 1, no external load), drawn from a seeded model:
//   truncated_normal, uniform, lognormal  mean `mean`, relative spread `sd`; drawn once, or
//                                         afresh every step (`redraw`)
//   drift       a multiplicative random walk per module: c(s+1) = c(s) exp(N(0, drift_sd))
//   particles   modules are cells of a chain holding particles (cost = particles x
//               `particle_seconds`); each step every particle crosses to a neighbouring cell
//               with probability `mu` (equally likely left or right) and Poisson(`lambda`) new
//               particles arrive per cell: Franklin & Govindan 1995's task arrival and departure
//               rates lambda(k), mu(k) of particles crossing domains (their section 5: "the
//               tasks leaving a processor are equally likely to go to any one of its adjacent
//               processors"). The particles start in a hump of width `hump` x modules.
// With `phases` K > 1 a step has K phases (balanced separately, as TRFD's two loops): phase k
// costs module m what the step's draw gives module (m + k M / K) mod M, the same loads placed
// differently, so that each phase wants its own assignment.
// With `dependencies: chain` module m's step s needs modules m-1 and m+1 at step s-1, as block
// substitution's (Iqbal, Saltz & Bokhari 1986), for the asynchronous simulation.
// Steps must be asked for in order (drift and particles carry state from step to step); the
// draws depend only on the seed, so two sources of the same parameters yield the same costs.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "workloads/workload.h"

namespace lbb {

class SyntheticCosts final : public Workload {
 public:
  explicit SyntheticCosts(const Params& params);
  static WorkloadInfo info();

  // Costs of step `step` (0, 1, 2, ... in order), seconds at nominal speed.
  const std::vector<double>& step_costs(int step);
  // Phase `phase` of the step step_costs last gave (phase 0: those costs).
  const std::vector<double>& phase_costs(int phase);

  int module_count() const override { return static_cast<int>(cost_.size()); }
  ModuleStructure structure() const override { return ModuleStructure::kChain; }
  std::vector<double> predicted_weights() const override;
  int phases() const override { return phases_; }
  std::vector<double> predicted_phase_weights(int phase) const override;
  std::optional<ModuleGraph> dependencies() const override;
  std::size_t state_bytes(int /*module*/) const override { return state_bytes_; }
  double exchanged_bytes(int, int, int, int) const override { return chain_ ? exchange_bytes_ : 0; }
  void init_state(int, std::span<std::byte>) const override {}
  void run_module(int, int, int, std::span<std::byte>) override;  // throws: no kernel
  void finish_step(int, ModuleStates&) override {}
  std::shared_ptr<const SerialReference> reference(int steps_run) const override {
    return std::make_shared<const SerialReference>(steps_run);  // nothing to compute
  }
  Verification verify_against(ModuleStates&, int, const SerialReference&) override;

 private:
  enum class Model { kTruncatedNormal, kUniform, kLognormal, kDrift, kParticles };
  void draw(std::vector<double>& out);
  void advance_particles();
  void shift(const std::vector<double>& in, int phase, std::vector<double>& out) const;

  Model model_;
  double mean_, sd_, drift_sd_, lambda_, mu_, particle_seconds_;
  bool redraw_, chain_;
  std::size_t state_bytes_;
  double exchange_bytes_;
  std::mt19937_64 rng_;
  int phases_;
  std::vector<double> cost_, first_, phase_cost_;
  std::vector<std::int64_t> particles_;
  int next_step_ = 0;
};

}  // namespace lbb
