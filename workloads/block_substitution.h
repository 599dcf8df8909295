#pragma once
// Block iterative substitution (Iqbal, Saltz & Bokhari 1986, section 2): a 2-D Poisson problem
// cut into a chain of diagonal blocks of non-uniform heights; every step each block does a
// forward and back substitution with its factored diagonal block, using its neighbours' values
// from the previous step (block Jacobi). Module i = block i; its cost grows with its height.
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "workloads/step_table.h"
#include "workloads/workload.h"

namespace lbb {

// Exchange buffers and per-block residuals of one block Jacobi iteration. The run and its
// serial reference each own one, so they never share data.
class BlockJacobiSweep {
 public:
  BlockJacobiSweep(int blocks, int width);
  // Boundary grid lines each block published after `step` (step -1: the initial iterate).
  std::span<double> top(int step, int block);
  std::span<double> bottom(int step, int block);
  double& residual_sq(int step, int block) { return residual_sq_.at(step, block); }
  double residual_norm(int step);

 private:
  std::span<double> line(int step, int block, int which);
  int blocks_;
  int width_;
  // [parity][block][top/bottom][width]: a block's lines of step s overwrite those of s-2, which
  // its neighbours have read by the time it may run step s (they have run s-1).
  std::vector<double> lines_;
  StepTable residual_sq_;  // [step][block]
};

class BlockSubstitution final : public Workload {
 public:
  static WorkloadInfo info();
  explicit BlockSubstitution(const Params& params);

  int module_count() const override { return static_cast<int>(lines_.size()); }
  ModuleStructure structure() const override { return ModuleStructure::kChain; }
  int dimensions() const override { return 1; }
  std::vector<double> module_coords() const override;
  std::vector<double> predicted_weights() const override;
  std::optional<ModuleGraph> dependencies() const override;  // the chain
  // A block reads its upper neighbour's bottom line and its lower neighbour's top line.
  double exchanged_bytes(int from, int to, int step, int phase) const override;
  std::size_t state_bytes(int module) const override;
  void init_state(int module, std::span<std::byte> state) const override;
  void run_module(int module, int step, int phase, std::span<std::byte> state) override;
  void finish_step(int step, ModuleStates& states) override;
  bool phase_outputs(int module, int step, int phase,
                     std::vector<std::span<std::byte>>& out) override;
  std::vector<StepMetric> step_metrics() const override;
  std::vector<double> step_metric_values(int step) const override;
  std::shared_ptr<const SerialReference> reference(int steps_run) const override;
  Verification verify_against(ModuleStates& states, int steps_run,
                              const SerialReference& reference) override;

  const std::vector<int>& block_lines() const { return lines_; }
  // The iterate x, and the factored diagonal block (LAPACK band storage), inside one module's
  // state.
  static std::span<double> iterate(std::span<std::byte> state);
  static std::span<double> factor(std::span<std::byte> state);
  // The current iterate gathered from the module states (for tests and verification).
  std::vector<double> gather_solution(ModuleStates& states) const;

 private:
  // Blocks of equal height have equal diagonal blocks: each height's band is factored once, by
  // the first state of that height that needs it, and copied into the others.
  struct HeightFactor {
    std::once_flag made;
    std::vector<double> band;  // Cholesky factor, LAPACK band storage
    int info = 0;              // dpbtrf's
  };
  const HeightFactor& factor_of(int lines) const;
  void step_block(BlockJacobiSweep& sweep, int module, int step, std::span<std::byte> state) const;
  int width_;
  std::vector<int> lines_;                       // grid lines per block
  mutable std::map<int, HeightFactor> factors_;  // by height; keys fixed at construction
  std::vector<std::size_t> first_;               // first unknown of each block in the global vector
  std::vector<double> b_;                        // right-hand side, global
  BlockJacobiSweep sweep_;
  std::vector<double> residual_history_;  // relative residual ||b - A x(s)|| / ||b|| per step
};

}  // namespace lbb
