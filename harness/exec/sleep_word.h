#pragma once
// A count that threads sleep on until it changes: the team's barrier and the asynchronous
// executor's processors wait on one. A waiter yields its core twice (where threads outnumber cores,
// a thread it waits for usually takes that turn), then sleeps in the kernel: on Linux in a futex
// wait of its own, since libstdc++'s C++20 atomic wait yields four times first, each a context
// switch once threads outnumber cores. Measured on 2 cores with the team's barrier (issue 16): 0, 2
// and 4 yields took configs/default.yaml's harness 0.38-0.51, 0.40-0.49 and 0.49-0.57 s of CPU, and
// an empty step at P = 8 (BM_HarnessOverhead) 45-50, 20-23 and 23 us. Under OMP_WAIT_POLICY=passive
// it sleeps at once (wait_policy.h): a yield is a spin the kernel schedules.
#include <atomic>
#include <climits>
#include <thread>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "harness/exec/wait_policy.h"

namespace lbb {

class SleepWord {
 public:
  // Yields before the kernel sleep under `policy`.
  static constexpr int yields_for(WaitPolicy policy) {
    return policy == WaitPolicy::kPassive ? 0 : kYields;
  }

  SleepWord() : yields_(yields_for(wait_policy())) {}
  int yields() const { return yields_; }

  unsigned load() const { return word_.load(std::memory_order_acquire); }

  // Adds one, which releases what this thread wrote before, and wakes every sleeper.
  void bump_and_wake() {
    word_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) wake_all();  // else no system call
  }

  // Returns once the count no longer holds `seen`; what the bumping thread wrote before is then
  // visible. A sleeper counts itself before it reads the count, and a bump changes the count
  // before it reads the sleepers (both sequentially consistent): either the sleeper sees the new
  // count or the bump sees the sleeper and wakes it. Out of line: spinning callers stay short.
  // `spin` pause rounds come first (GroupBarrier::spin_for: only where every thread has a core).
  [[gnu::noinline]] void wait_while(unsigned seen, int spin = 0) {
    for (int i = 0; i < spin; ++i) {
      if (load() != seen) return;
#if defined(__x86_64__) || defined(__i386__)
      _mm_pause();
#endif
    }
    for (int i = 0; i < yields_; ++i) {
      if (load() != seen) return;
      std::this_thread::yield();
    }
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    while (word_.load(std::memory_order_seq_cst) == seen) {
#if defined(__linux__)
      // Returns at once if the word no longer holds `seen`: no wake-up is lost in between.
      syscall(SYS_futex, address(), FUTEX_WAIT_PRIVATE, seen, nullptr, nullptr, 0);
#else
      word_.wait(seen, std::memory_order_acquire);
#endif
    }
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
  }

 private:
  static constexpr int kYields = 2;

  [[gnu::noinline]] void wake_all() {
#if defined(__linux__)
    syscall(SYS_futex, address(), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
#else
    word_.notify_all();
#endif
  }

  unsigned* address() {
    static_assert(sizeof(word_) == 4 && std::atomic<unsigned>::is_always_lock_free);
    return reinterpret_cast<unsigned*>(&word_);
  }

  std::atomic<unsigned> word_{0};
  std::atomic<int> sleepers_{0};  // threads in wait_while's kernel sleep
  const int yields_;
};

}  // namespace lbb
