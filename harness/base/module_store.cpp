#include "harness/base/module_store.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace lbb {

namespace {
constexpr std::size_t kAlignment = 64;  // a cache line: no false sharing between modules
}

void ModuleStore::FreeDeleter::operator()(std::byte* p) const {
  std::free(p);
}

std::unique_ptr<std::byte, ModuleStore::FreeDeleter> ModuleStore::allocate(std::size_t bytes) {
  const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
  if (!p) throw std::bad_alloc();
  return std::unique_ptr<std::byte, FreeDeleter>(static_cast<std::byte*>(p));
}

ModuleStore::ModuleStore(Workload& workload)
    : workload_(workload), blocks_(workload.module_count()) {}

std::span<std::byte> ModuleStore::state(int module) {
  return {blocks_[module].data.get(), blocks_[module].size};
}

std::vector<std::uint64_t> ModuleStore::all_bytes() const {
  std::vector<std::uint64_t> out(blocks_.size());
  for (std::size_t m = 0; m < blocks_.size(); ++m) out[m] = blocks_[m].size;
  return out;
}

void ModuleStore::place(int module) {
  Block& b = blocks_[module];
  b.size = workload_.state_bytes(module);
  b.data = allocate(b.size);
  workload_.init_state(module, {b.data.get(), b.size});
}

std::size_t ModuleStore::migrate(int module) {
  Block& b = blocks_[module];
  auto fresh = allocate(b.size);
  std::memcpy(fresh.get(), b.data.get(), b.size);
  b.data = std::move(fresh);
  return b.size;
}

void ModuleStore::adopt(int module, std::span<const std::byte> state) {
  Block& b = blocks_[module];
  b.data = allocate(state.size());
  b.size = state.size();
  if (!state.empty()) std::memcpy(b.data.get(), state.data(), state.size());
}

void ModuleStore::resize(int module, std::size_t bytes) {
  Block& b = blocks_[module];
  if (bytes == b.size) return;
  auto fresh = allocate(bytes);
  const std::size_t keep = std::min(bytes, b.size);
  if (keep) std::memcpy(fresh.get(), b.data.get(), keep);
  std::memset(fresh.get() + keep, 0, bytes - keep);
  b.data = std::move(fresh);
  b.size = bytes;
}

bool ModuleStore::complete() const {
  for (const auto& b : blocks_)
    if (!b.data) return false;
  return true;
}

}  // namespace lbb
