#pragma once
// Module states held in plain vectors: the private buffers of a workload's serial reference, and
// of tests that drive a workload without the harness.
#include <cstddef>
#include <new>
#include <vector>

#include "workloads/workload.h"

namespace lbb {

// Every state starts on a cache line, as in the harness's ModuleStore: a workload may lay a
// cache-line-aligned header over its state (an AVX-512 build stores it with aligned moves).
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{64};
  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlignment)); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, kAlignment); }
  bool operator==(const CacheLineAllocator&) const = default;
};

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
  std::vector<std::vector<std::byte, CacheLineAllocator<std::byte>>> states_;
};

}  // namespace lbb
