#pragma once
// A reusable barrier for a fixed set of the team's threads: a processor group of Zaki, Li &
// Parthasarathy 1997's local schemes synchronises on its own, which an OpenMP barrier (the whole
// team) cannot do, and the whole team's end of phase runs its serial decision inside its one
// barrier (Team::serial_barrier), which an OpenMP barrier followed by a single section takes two
// for. Sense reversal by a generation count; a waiting thread spins `spin` rounds (on real cores
// a wake-up from the kernel costs more than a short wait), yields its core twice (where threads
// outnumber cores, a thread still to arrive usually takes that turn and arrives), then sleeps in
// the kernel instead of spinning on cores other threads need: on Linux in a futex wait of its own,
// since libstdc++'s atomic wait yields four times first. Measured on 2 cores (issue 16): 0, 2 and
// 4 yields (4 as libstdc++) took configs/default.yaml's harness 0.38-0.51, 0.40-0.49 and
// 0.49-0.57 s of CPU, and an empty step at P = 8 (BM_HarnessOverhead) 45-50, 20-23 and 23 us.
#include <atomic>
#include <climits>
#include <thread>
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace lbb {

// On cache lines of its own: its counters cross between cores every round, and nothing else
// should travel with them.
class alignas(64) GroupBarrier {
 public:
  // Spin rounds before sleeping where every thread has a core: about 55 us (a pause takes 27 ns
  // on this machine's AMD EPYC, up to 140 cycles on recent Intel cores), several times what a
  // futex sleep and wake-up costs (a 6.4 us round trip of two measured here). Spinning about as
  // long as blocking costs, then blocking, spends at most twice the better choice's time (Karlin,
  // Li, Manasse & Owicki 1991); a longer spin burns a core whenever the awaited thread lost its
  // own core to another process, which libgomp's own barrier does for up to 300,000 rounds.
  static constexpr int kSpinOnOwnCores = 1 << 11;

  explicit GroupBarrier(int size, int spin = 0) : size_(size), spin_(spin) {}
  GroupBarrier(const GroupBarrier&) = delete;
  GroupBarrier& operator=(const GroupBarrier&) = delete;

  int size() const { return size_; }

  // Returns once all `size` threads have called it for this round. Writes made before the call
  // by any of them are visible to all of them after it.
  void arrive_and_wait() {
    arrive_and_wait([] {});
  }

  // The same; the last thread to arrive runs last() (which must not throw) before any leaves,
  // and what it writes is visible to all of them after the call.
  template <class Last>
  void arrive_and_wait(Last&& last) {
    const unsigned round = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == size_) {
      last();
      arrived_.store(0, std::memory_order_relaxed);  // ordered before the release below
      generation_.fetch_add(1, std::memory_order_seq_cst);
      wake_sleepers();
      return;
    }
    for (int i = 0; i < spin_; ++i) {
      if (generation_.load(std::memory_order_acquire) != round) return;
#if defined(__x86_64__) || defined(__i386__)
      _mm_pause();
#endif
    }
    sleep_while(round);
  }

 private:
  static constexpr int kYields = 2;

  // Out of line, as wake_all: the spinning path stays short. After the yields, a sleeper counts
  // itself before it reads the generation, and the last arrival bumps the generation before it
  // reads the count (both sequentially consistent): either the sleeper sees the new round or the
  // last arrival sees the sleeper and wakes it.
  [[gnu::noinline]] void sleep_while(unsigned round) {
    for (int i = 0; i < kYields; ++i) {
      std::this_thread::yield();
      if (generation_.load(std::memory_order_acquire) != round) return;
    }
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    while (generation_.load(std::memory_order_seq_cst) == round) {
#if defined(__linux__)
      // Returns at once if the word no longer holds `round`: no wake-up is lost in between.
      syscall(SYS_futex, word(), FUTEX_WAIT_PRIVATE, round, nullptr, nullptr, 0);
#else
      generation_.wait(round, std::memory_order_acquire);
#endif
    }
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
  }

  void wake_sleepers() {
    if (sleepers_.load(std::memory_order_seq_cst) == 0) return;  // all spun: no system call
    wake_all();
  }

  [[gnu::noinline]] void wake_all() {
#if defined(__linux__)
    syscall(SYS_futex, word(), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr, nullptr, 0);
#else
    generation_.notify_all();
#endif
  }

  unsigned* word() {
    static_assert(sizeof(generation_) == 4 && std::atomic<unsigned>::is_always_lock_free);
    return reinterpret_cast<unsigned*>(&generation_);
  }

  const int size_;
  const int spin_;
  std::atomic<int> arrived_{0};
  std::atomic<unsigned> generation_{0};
  std::atomic<int> sleepers_{0};  // threads in sleep_while
};

}  // namespace lbb
