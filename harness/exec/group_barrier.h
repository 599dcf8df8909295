#pragma once
// A reusable barrier for a fixed set of the team's threads: a processor group of Zaki, Li &
// Parthasarathy 1997's local schemes synchronises on its own, which an OpenMP barrier (the whole
// team) cannot do, and the whole team's end of phase runs its serial decision inside its one
// barrier (Team::serial_barrier), which an OpenMP barrier followed by a single section takes two
// for. Sense reversal by a generation count; a waiting thread spins `spin` rounds (on real cores
// a wake-up from the kernel costs more than a short wait), then waits on the count (sleep_word.h)
// instead of spinning on cores other threads need.
#include <atomic>

#include "harness/exec/sleep_word.h"
#include "harness/exec/wait_policy.h"

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

  // The spin of a barrier whose threads each have a core (or not) under `policy`: none where
  // they outnumber the cores or the policy is passive (wait_policy.h), which asks for a sleep at
  // once whatever the cores.
  static constexpr int spin_for(WaitPolicy policy, bool outnumbers_cores) {
    return policy == WaitPolicy::kPassive || outnumbers_cores ? 0 : kSpinOnOwnCores;
  }

  explicit GroupBarrier(int size, int spin = 0) : size_(size), spin_(spin) {}
  GroupBarrier(const GroupBarrier&) = delete;
  GroupBarrier& operator=(const GroupBarrier&) = delete;

  int size() const { return size_; }
  int spin() const { return spin_; }

  // Returns once all `size` threads have called it for this round. Writes made before the call
  // by any of them are visible to all of them after it.
  void arrive_and_wait() {
    arrive_and_wait([] {});
  }

  // The same; the last thread to arrive runs last() (which must not throw) before any leaves,
  // and what it writes is visible to all of them after the call.
  template <class Last>
  void arrive_and_wait(Last&& last) {
    const unsigned round = generation_.load();
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == size_) {
      last();
      arrived_.store(0, std::memory_order_relaxed);  // ordered before the bump's release
      generation_.bump_and_wake();
      return;
    }
    generation_.wait_while(round, spin_);
  }

 private:
  const int size_;
  const int spin_;
  std::atomic<int> arrived_{0};
  SleepWord generation_;
};

}  // namespace lbb
