#pragma once
// Where module states live. A state is one aligned heap block; placing or migrating a module
// allocates and writes the new block on the calling thread, so the pages are first touched by
// the processor that will own them (on NUMA nodes: local memory).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "workloads/workload.h"

namespace lbb {

class ModuleStore final : public ModuleStates {
 public:
  explicit ModuleStore(Workload& workload);

  int size() const { return static_cast<int>(blocks_.size()); }
  std::span<std::byte> state(int module) override;
  // A new block of `bytes` written by the calling thread (finish_step's), the old prefix kept.
  void resize(int module, std::size_t bytes) override;
  std::size_t bytes(int module) const { return blocks_[module].size; }
  std::vector<std::uint64_t> all_bytes() const;

  // Creates the initial state of a module on the calling thread (first touch by its owner).
  void place(int module);
  // Copies the state into a new block written by the calling thread and frees the old one.
  // Returns the bytes copied.
  std::size_t migrate(int module);
  // True when every module holds exactly one live state block.
  bool complete() const;
  // A run across processes holds only its own modules' states (harness/mpi/): whether this
  // process holds the module's, a state received from another process (written by the calling
  // thread), and a state given away.
  bool holds(int module) const { return static_cast<bool>(blocks_[module].data); }
  void adopt(int module, std::span<const std::byte> state);
  void release(int module) { blocks_[module] = Block{}; }

 private:
  struct FreeDeleter {
    void operator()(std::byte* p) const;
  };
  struct Block {
    std::unique_ptr<std::byte, FreeDeleter> data;
    std::size_t size = 0;
  };
  static std::unique_ptr<std::byte, FreeDeleter> allocate(std::size_t bytes);

  Workload& workload_;
  std::vector<Block> blocks_;
};

}  // namespace lbb
