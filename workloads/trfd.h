#pragma once
// TRFD-like integral transformation (Perfect benchmarks; Zaki, Li & Parthasarathy 1997): every
// step transforms the symmetric two-electron integral array by an orthogonal matrix C in two
// phases, the two half-transformation loops, balanced separately. Module i = a block of outer
// loop iterations = a block of orbitals, and so a contiguous block of rows of the major array
// (pairs ij with i in the block); the inner loops over j <= i and over pq <= rs make the costs
// grow with the outer index, differently in each phase. See docs/workloads.md.
#include <cstdint>
#include <vector>

#include "workloads/workload.h"

namespace lbb {

// The exchange buffers of the two phases: the half-transformed array (rows written in phase 0,
// columns read in phase 1: the transposition of the original) and the lower triangle of the
// transformed array (written in phase 1, read in the next step's phase 0 to fill the upper
// part of each row). The run and its serial reference each own one.
struct TrfdExchange {
  explicit TrfdExchange(int n, int modules);
  std::vector<double> half, full;  // pair_count^2 each, row-major
  std::vector<double> norm_sq;     // per module: its share of the tensor's squared norm
  std::vector<double> norm;        // per step: Frobenius norm of the transformed n^4 tensor
};

class Trfd final : public Workload {
 public:
  static WorkloadInfo info();
  explicit Trfd(const Params& params);

  int module_count() const override { return static_cast<int>(first_.size()) - 1; }
  ModuleStructure structure() const override { return ModuleStructure::kChain; }
  int dimensions() const override { return 1; }
  std::vector<double> module_coords() const override;
  int phases() const override { return 2; }
  std::optional<ModuleGraph> exchange_graph() const override;
  double exchanged_bytes(int from, int to, int step, int phase) const override;
  std::vector<double> predicted_weights() const override;
  std::vector<double> predicted_phase_weights(int phase) const override;
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

  int orbitals() const { return n_; }
  // The lower triangle (pq <= rs) of the current array, gathered from the states, row-major
  // pair_count^2 with zeros above the diagonal.
  std::vector<double> gather_lower(ModuleStates& states) const;

 private:
  void run_phase(TrfdExchange& ex, int module, int phase, std::span<std::byte> state) const;
  double tensor_norm_sq_of_initial() const;
  std::size_t rows(int module) const;  // of the major array

  int n_;
  std::size_t pairs_;
  std::vector<int> first_;         // module i runs outer iterations [first_[i], first_[i + 1])
  std::vector<double> c_;          // orthogonal n x n
  std::vector<double> integrals_;  // the initial array, pair_count^2, symmetric
  TrfdExchange exchange_;
};

}  // namespace lbb
