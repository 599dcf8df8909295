#pragma once
// Module states held in plain vectors: the private buffers of a workload's serial reference, and
// of tests that drive a workload without the harness.
#include <vector>

#include "workloads/workload.h"

namespace lbb {

class VectorModuleStates final : public ModuleStates {
 public:
  VectorModuleStates() = default;
  // The initial states of every module of `workload`.
  explicit VectorModuleStates(const Workload& workload) : states_(workload.module_count()) {
    for (int m = 0; m < workload.module_count(); ++m) {
      states_[m].resize(workload.state_bytes(m));
      workload.init_state(m, states_[m]);
    }
  }
  std::span<std::byte> state(int module) override { return states_.at(module); }
  void resize(int module, std::size_t bytes) override { states_.at(module).resize(bytes); }
  int size() const { return static_cast<int>(states_.size()); }

 private:
  std::vector<std::vector<std::byte>> states_;
};

}  // namespace lbb
