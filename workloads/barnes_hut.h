#pragma once
// Barnes-Hut N-body simulation of a Plummer star cluster (Franklin & Govindan 1995, section 4),
// in 2-D (quadtree) or 3-D (octree), with leapfrog time integration. Modules are the cells of a
// fixed grid over space, or (decomposition: curve) fixed key ranges of a Morton curve holding
// equal body counts at t = 0, fine where the cluster is dense; a module holds the bodies inside its
// cell, and bodies that cross a cell boundary move to the neighbouring module at the end of every
// step, so module sizes and costs drift (the task arrivals and departures lambda, mu of Franklin &
// Govindan's model). Under decomposition: particles every module holds the same number of
// bodies (within one; Franklin & Govindan's identical tasks): the bodies in curve order are cut
// into equal runs again every step, so bodies cross between neighbouring runs as they move.
//
// Sharing the global tree: finish_step (serial) moves crossing bodies between module states,
// then builds one tree over all bodies, the exchange buffer of the step. Every module walks that
// tree in run_module once per group of its bodies that are neighbours in the tree (Barnes 1990), so
// the force walk, the dominant O(N log N) work, is the module's cost, while the O(N log N) build
// with a small constant stays a measured serial part.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "kernels/barnes_hut.h"
#include "workloads/workload.h"

namespace lbb {

struct NbodyReference;  // the serial replay verify compares with (barnes_hut.cpp)

// The exchange buffers of one simulation: the tree of the bodies' current positions and the
// per-module sums of the step. The run and its serial reference each own one.
struct NbodySweep {
  explicit NbodySweep(int modules)
      : kinetic(modules, 0.0),
        potential(modules, 0.0),
        interactions(modules, 0),
        cells_tested(modules, 0) {}
  kernels::BodyTree tree;
  std::vector<std::int32_t> tree_index;    // by body id: its index in the tree
  std::vector<double> kinetic, potential;  // per module, at the start of the step
  std::vector<std::int64_t> interactions;  // per module, tree interactions of the step
  std::vector<std::int64_t> cells_tested;  // per module, opening tests of the step's walk
  std::vector<double> energy;              // per step: kinetic + potential at its start
  std::vector<double> crossings;           // per step: bodies that changed module after it
  std::vector<double> total_interactions;  // per step
  std::vector<ModuleTransfer> transfers;   // the bodies' bytes that crossed cells at the last step
};

class BarnesHut final : public Workload {
 public:
  static WorkloadInfo info();
  explicit BarnesHut(const Params& params);

  int module_count() const override { return static_cast<int>(initial_.size()); }
  ModuleStructure structure() const override { return ModuleStructure::kSpatial; }
  int dimensions() const override { return dims_; }
  std::vector<double> module_coords() const override;
  std::vector<double> predicted_weights() const override { return predicted_; }
  // Cells linked across faces (grid), or consecutive key ranges along the curve.
  std::optional<ModuleGraph> communication() const override;
  std::size_t state_bytes(int module) const override;
  void init_state(int module, std::span<std::byte> state) const override;
  void run_module(int module, int step, int phase, std::span<std::byte> state) override;
  void finish_step(int step, ModuleStates& states) override;
  bool phase_outputs(int module, int step, int phase,
                     std::vector<std::span<std::byte>>& out) override;
  bool finish_step_reads_states() const override { return true; }  // bodies cross cells
  std::vector<ModuleTransfer> step_transfers() const override { return sweep_.transfers; }
  std::vector<StepMetric> step_metrics() const override;
  std::vector<double> step_metric_values(int step) const override;
  std::shared_ptr<const SerialReference> reference(int steps_run) const override;
  Verification verify_against(ModuleStates& states, int steps_run,
                              const SerialReference& reference) override;
  std::vector<WorkloadAttribute> attributes() const override { return attributes_; }

  // Per module, the walk's cost in the last step run, counted (walk_cost): what
  // predicted_weights predicts.
  std::vector<double> module_walk_costs() const;
  // Every body's record (position, velocity, mass, id), ordered by id.
  std::vector<double> gather_bodies(ModuleStates& states) const;
  int record_doubles() const { return 2 * dims_ + 2; }

 private:
  void step_module(NbodySweep& sweep, int module, int step, std::span<std::byte> state) const;
  // Forces on a module's `count` records r, its bodies walking the tree in groups.
  // cells_tested: the walk's opening tests.
  std::vector<kernels::Force> module_forces(const NbodySweep& sweep, const double* r,
                                            std::int64_t count, std::int64_t& cells_tested) const;
  void end_step(NbodySweep& sweep, ModuleStates& states) const;
  int redistribute(ModuleStates& states, std::vector<ModuleTransfer>& moved) const;
  void rebuild_tree(NbodySweep& sweep, ModuleStates& states) const;
  void sample_forces(NbodyReference& ref) const;
  std::uint64_t curve_key(const double* x) const;
  void split_curve(std::span<const double> pos, int modules);
  void set_group_centres();
  // The module a position belongs to (grid and curve): its grid cell (outside the grid, the
  // nearest edge cell), or its key range along the curve.
  int cell_of(const double* x) const;
  // The module of every body (positions, dims per body, and ids): cell_of, or under particles
  // its run of the bodies in curve order.
  std::vector<int> modules_of(std::span<const double> pos, std::span<const std::int64_t> ids) const;
  // Every body's position, mass and id, module by module in storage order.
  struct BodyColumns {
    std::vector<double> pos, mass;
    std::vector<std::int64_t> ids;
  };
  BodyColumns gather(ModuleStates& states) const;
  std::vector<std::vector<int>> targets(ModuleStates& states) const;

  int dims_;
  int cells_per_side_;
  bool curve_;      // decomposition: curve or particles (both order bodies along the curve)
  bool particles_;  // decomposition: particles
  double box_, theta_, eps_, dt_;
  int leaf_size_;
  int force_samples_;
  double energy_tolerance_;
  std::uint64_t seed_;
  std::vector<std::uint64_t> curve_bounds_;   // curve: first key of modules 1..M-1
  std::vector<double> curve_centres_;         // curve, particles: module centres at t = 0
  std::vector<std::vector<double>> initial_;  // per module: its bodies' records at t = 0
  std::vector<double> predicted_;
  NbodySweep sweep_;
  std::vector<WorkloadAttribute> attributes_;
};

// The cost of a module's grouped walk in summed interactions: its interactions plus its opening
// tests, each weighed as 24 interactions. A test is a scalar step with a data-dependent branch
// (about 9 ns at 1e5 bodies in 3-D on the 2-core development host), an interaction one lane of
// the vectorised sum (0.37 ns there); modules of a few bodies in many groups test more cells per
// body than their interactions show.
double walk_cost(std::int64_t interactions, std::int64_t cells_tested);

// Modules of `bodies` bodies in groups of at most `per_module` (decomposition: particles).
int particle_modules(std::int64_t bodies, std::int64_t per_module);

// Bound on the rms relative force error of the tree against direct summation at opening
// parameter theta in `dims` dimensions, for the opening criterion used here (docs/workloads.md).
double barnes_hut_force_error_bound(double theta, int dims);

}  // namespace lbb
