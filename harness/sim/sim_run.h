#pragma once
// One simulated run (harness/sim/simulate_executor.h): the state its steps share and the steps
// by name: partition, run each phase's modules (bulk, or with in-step group synchronisations),
// decide after the phase, copy the states the next phase's owners lack, close the step's record.
// A workload of several phases (TRFD's two loops) has an assignment and a balancer per phase, as
// in the bsp executor.
#include <cstdint>
#include <memory>
#include <vector>

#include "harness/base/sim_settings.h"
#include "harness/exec/executor.h"
#include "harness/exec/group_sync.h"
#include "harness/exec/load_view_builder.h"
#include "harness/exec/step_recorder.h"
#include "harness/sim/cost_stream.h"

namespace lbb {

// What the step's charges added, summed over processors (the executor's metrics).
struct SimCharges {
  double migration = 0, synchronisation = 0, decision = 0, contention = 0, exchange = 0;
};

class SimRun {
 public:
  SimRun(Workload& workload, const ExecutionPlan& plan, StepSink& sink, const SimSettings& settings,
         CostStream& costs);
  ExecutionResult run();

 private:
  void partition(int ph);
  void swap_phase(int ph);
  void start_step(int s);
  void run_phase(int s);
  void run_bulk();
  void run_groups(int s);
  void run_group(int s, SyncGroup& group);
  void run_round(const SyncGroup& group, bool stops);
  bool synchronise(int s, const SyncGroup& group);
  void charge_group_decision(const SyncGroup& group, const GroupDecision& d, double seconds);
  void decide(int s);
  void copy(int m, int to, double& charge);
  void copy_for_next_phase();
  double rank_messages_seconds(int s) const;
  void close_step(int s);
  double on(int m, int p) const { return nominal_[m] / rate_[p]; }  // seconds m takes on p

  Workload& workload_;
  const ExecutionPlan& plan_;
  StepSink& sink_;
  const SimSettings& settings_;
  CostStream& costs_;
  const int P_, M_, total_;
  std::vector<std::uint64_t> bytes_;
  const std::vector<double> coords_;
  const LoadViewBuilder views_;
  const int phases_;
  int ph_ = 0;  // the phase being run; its state is in the members up to measured_
  Balancer* balancer_ = nullptr;
  bool in_step_ = false;
  std::vector<std::unique_ptr<SyncGroup>> groups_;
  int max_syncs_ = 1;
  // Per processor, in an in-step phase: where it is in its list and on its modelled clock, and
  // where it was at its group's last synchronisation.
  struct InStepPlace {
    std::size_t at = 0, since = 0;
    double clock = 0, busy = 0, busy_since = 0;
  };
  std::vector<InStepPlace> place_;
  std::vector<int> owner_;
  std::vector<std::vector<int>> lists_;
  std::vector<double> nominal_, level_, rate_;  // this step's; per processor: load, speed/(1+L)
  std::vector<double> stretch_;                 // per processor: the contention's slowdown
  std::vector<double> weights_;                 // predicted, for in-step views before any step
  std::vector<StopReport> reports_;             // per processor, of its group's synchronisation
  std::vector<double> ran_;                     // per module: seconds on whoever ran it
  std::vector<double> seen_;  // per module: the last measured cost at nominal speed
  bool measured_ = false;     // seen_ holds a step's measurements
  // The same state of the other phases, swapped with the members when their turn comes.
  struct PhaseState {
    Balancer* balancer = nullptr;
    bool in_step = false;
    std::vector<std::unique_ptr<SyncGroup>> groups;
    int max_syncs = 1;
    std::vector<int> owner;
    std::vector<std::vector<int>> lists;
    std::vector<double> weights, seen;
    bool measured = false;
  };
  std::vector<PhaseState> parked_;  // [phase]; the current phase's entry holds nothing
  std::vector<int> where_;          // the processor holding each module's state
  std::vector<double> step_cost_;   // per module: seconds over the step's phases (the record)
  std::vector<double> view_busy_;   // per processor, the view's busy times
  std::vector<int> step_owner_;     // who ran each module this step (before the decision)
  StepRecorder recorder_;
  SimCharges charges_;
  ExecutionResult result_;
  double clock_ = 0;  // modelled time at the step's start
  StepRecord rec_;
};

}  // namespace lbb
