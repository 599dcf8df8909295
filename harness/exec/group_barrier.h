#pragma once
// A reusable barrier for a fixed subset of the team's threads: a processor group of Zaki, Li &
// Parthasarathy 1997's local schemes synchronises on its own, which an OpenMP barrier (the whole
// team) cannot do. Sense reversal by a generation count; a waiting thread sleeps in the kernel
// (C++20 atomic wait, a futex on Linux) instead of spinning on cores other threads need.
#include <atomic>

namespace lbb {

class GroupBarrier {
 public:
  explicit GroupBarrier(int size) : size_(size) {}
  GroupBarrier(const GroupBarrier&) = delete;
  GroupBarrier& operator=(const GroupBarrier&) = delete;

  int size() const { return size_; }

  // Returns once all `size` threads have called it for this round. Writes made before the call
  // by any of them are visible to all of them after it.
  void arrive_and_wait() {
    const unsigned round = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == size_) {
      arrived_.store(0, std::memory_order_relaxed);  // ordered before the release below
      generation_.fetch_add(1, std::memory_order_release);
      generation_.notify_all();
      return;
    }
    while (generation_.load(std::memory_order_acquire) == round)
      generation_.wait(round, std::memory_order_acquire);
  }

 private:
  const int size_;
  std::atomic<int> arrived_{0};
  std::atomic<unsigned> generation_{0};
};

}  // namespace lbb
