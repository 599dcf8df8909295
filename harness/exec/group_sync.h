#pragma once
// In-step synchronisation of Zaki, Li & Parthasarathy 1997: a group of processors (all of them,
// or K consecutive ones for the local schemes) stops whenever its fastest processor has run all
// its modules; the balancer redistributes the modules the group has not run yet, from a profile of
// the work each processor did since the last synchronisation. Rounds: round r of a phase runs
// until the r-th synchronisation (or the phase's end); its shared records alternate between two
// slots, so round r + 1 never overwrites what a slower member still reads of round r.
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "balancers/balancer.h"
#include "harness/base/module_store.h"
#include "harness/exec/group_barrier.h"
#include "harness/exec/load_view_builder.h"
#include "harness/exec/sleep_word.h"

namespace lbb {

// One result of a group's decision: the group's unfinished modules (increasing index, the view's
// module order) and the balancer's decision on them.
struct GroupDecision {
  std::vector<int> modules;
  Decision decision;
  double cpu = 0;  // s, thread CPU time of building the view and deciding
};

// The shared state of one group for one phase. reset() between phases, when no thread uses it.
struct SyncGroup {
  SyncGroup(int first_processor, int processors)
      : first(first_processor), size(processors), barrier(processors) {}
  const int first, size;  // processors [first, first + size)
  GroupBarrier barrier;
  // Synchronisations triggered in this phase: round r stops once it exceeds r. The first
  // processor of the group to finish round r raises it from r to r + 1.
  std::atomic<int> stop{0};
  // Per round parity: the one result the group applies. The group's first processor clears the
  // slot of round r + 1 after round r's barrier, when every member is done with round r - 1.
  std::atomic<const GroupDecision*> published[2] = {nullptr, nullptr};
  // Bumped after each publication under OMP_WAIT_POLICY=passive, which its members sleep on
  // (wait_policy.h); the other policies wait on `published` itself.
  SleepWord decided;

  void reset() {
    stop.store(0, std::memory_order_relaxed);
    for (auto& slot : published) slot.store(nullptr, std::memory_order_relaxed);
  }
};

// Zaki, Li & Parthasarathy 1997, repeated: the rounds of one group (or one of its processors) in
// a phase, the rule the bsp executor and the simulator share. Round r runs until the group's r-th
// synchronisation (`run(r, true)`: its fastest processor has run all its modules) and the group
// synchronises (`synchronise(r)`: false when nothing was left or its decision moved nothing);
// after max_syncs synchronisations (at least one), or one that moved nothing, the last round runs
// to the end (`run(r, false)`).
inline int sync_limit(const SyncTrigger& trigger) {
  return trigger.max_syncs > 1 ? trigger.max_syncs : 1;
}
template <class RunRound, class Synchronise>
void hold_sync_rounds(int max_syncs, RunRound run, Synchronise synchronise) {
  for (int round = 0;; ++round) {
    const bool stops = round < max_syncs;
    run(round, stops);
    if (!stops) return;
    if (!synchronise(round)) {
      run(round + 1, false);
      return;
    }
  }
}

// Groups of `group_size` consecutive processors (0: one group of all P); the last may be smaller.
std::vector<std::unique_ptr<SyncGroup>> make_sync_groups(int processors, int group_size);

// What a processor leaves for its group when it stops. Written by its processor before the
// group barrier, read by the group's members after it, unchanged until two rounds later.
struct alignas(64) StopReport {
  std::vector<int> unrun;          // its modules not run yet in this phase
  std::vector<double> unrun_cost;  // their nominal seconds, measured in the last step
  // The load function's inputs since the last synchronisation (the phase's start at first):
  // wall seconds running modules, emulated load included (the trigger's clock: the processor
  // that finishes first on the wall clock triggers), and the modules completed; where threads
  // outnumber cores, since the phase began and in CPU seconds (ThreadMachine::report_stop).
  double busy = 0;
  int done = 0;
  double clock = 0;  // s, its modelled CPU time since the phase began, at the stop
  // Used before any cost was measured (first step): the nominal seconds and predicted weight of
  // the modules it ran, to scale predicted weights into seconds.
  double ran_seconds = 0, ran_weight = 0;
};

// Everything of the run a group view needs besides the reports.
struct GroupViewContext {
  bool measured = true;  // false: StopReport::unrun_cost is unset, scale the predicted weights
  std::span<const double> predicted;       // per module: the phase's predicted weight
  const LoadViewBuilder* views = nullptr;  // speeds, topology, structure, module coordinates
  int step = 0;
  const ModuleStore* store = nullptr;    // state sizes
  std::span<const std::uint64_t> bytes;  // per module, instead of the store's (the simulator)
};

// Builds the view of a group's unfinished modules (all P processors stay in it, so processor ids
// keep their meaning; processors outside the group report no work), decides, and times it on the
// calling thread's CPU clock. A decision that moves a module out of the group is refused.
GroupDecision decide_for_group(Balancer& balancer, const SyncGroup& group,
                               std::span<const StopReport> reports, const GroupViewContext& ctx);

// Same act flag and, when acting, the same owners: what redundant deciders must agree on.
bool same_decision(const Decision& a, const Decision& b);

}  // namespace lbb
