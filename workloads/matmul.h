#pragma once
// Matrix multiplication Z = X Y with X n x r and Y r x m (Zaki, Li & Parthasarathy 1997). Module
// i = a block of rows of X and the same rows of Z; every step recomputes the block's product
// with dgemm. Y is read-only and shared, as every workstation held it in the original.
#include <cstdint>
#include <vector>

#include "workloads/workload.h"

namespace lbb {

class Matmul final : public Workload {
 public:
  static WorkloadInfo info();
  explicit Matmul(const Params& params);

  int module_count() const override { return static_cast<int>(first_row_.size()) - 1; }
  ModuleStructure structure() const override { return ModuleStructure::kIndependent; }
  int dimensions() const override { return 1; }
  std::vector<double> module_coords() const override;
  std::vector<double> predicted_weights() const override;
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

  int rows(int module) const { return first_row_[module + 1] - first_row_[module]; }
  // Row i of X, generated from the seed alone (so verification regenerates it).
  std::vector<double> x_row(int i) const;
  // Y, generated from the seed alone.
  std::vector<double> make_y() const;
  // Z (n x m, row-major) gathered from the module states; throws on a bad header or size.
  std::vector<double> gather_product(ModuleStates& states) const;

 private:
  int n_, r_, m_;
  std::uint64_t seed_;
  int samples_;
  std::vector<int> first_row_;     // module i holds rows [first_row_[i], first_row_[i + 1])
  std::vector<double> y_;          // shared, read-only
  std::vector<double> block_sum_;  // per module: sum of its Z block after the step
  std::vector<double> checksum_;   // per step: sum of all of Z
};

}  // namespace lbb
