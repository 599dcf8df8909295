#pragma once
// The bulk-synchronous step protocol, the one loop of every machine a module workload runs on
// bulk-synchronously (threads, MPI ranks, simulated processors): each phase's initial partition,
// then per step and phase: run the phase's modules (in-step groups synchronising inside it), meet,
// decide between steps, move the states the next phase's owners lack, and close the step's record
// after its last moves. Each phase has its own assignment and balancer (Zaki, Li & Parthasarathy
// 1997 balance TRFD's two loops separately). What differs between machines is StepMachine's.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/base/clock.h"
#include "harness/exec/executor.h"
#include "harness/exec/group_sync.h"
#include "harness/exec/load_view_builder.h"
#include "harness/exec/step_recorder.h"
#include "harness/exec/timeline_recorder.h"

namespace lbb {

// One phase's balancing and assignment: what its balancer declares, its owners and run lists,
// and its modules' costs in its last run.
struct PhasePlan {
  Balancer* balancer = nullptr;  // null: the phase keeps its assignment
  bool redundant = false;        // every processor decides; one result is applied
  bool in_step = false;  // Zaki, Li & Parthasarathy 1997: decide when a group's fastest ends
  int group_size = 1;
  int max_syncs = 1;  // per group and phase
  std::vector<std::unique_ptr<SyncGroup>> groups;
  SyncGroup& group_of(int p) const { return *groups[p / group_size]; }
  std::vector<double> weights;          // predicted
  std::vector<int> owner;               // who runs each module
  std::vector<std::vector<int>> lists;  // [processor]: the modules it runs, in order
  std::vector<double> cost;             // measured in the last run: seconds on whoever ran it
  std::vector<double> seen;  // what balancers see: the costs at nominal speed (when they differ)
  bool measured = false;     // every module's cost measured once
  std::optional<LoadModel> model;  // what the balancer sees instead of the last step's costs
};

// What a machine declares of itself to the protocol.
struct MachineTraits {
  bool models_seen = false;  // it fills PhasePlan::seen itself, even at nominal speeds
  bool in_step = true;       // it holds in-step groups (else their balancers decide at the end)
  bool moves = true;         // states follow their owners (else every processor reads every one)
};

// What the machines share of one run, read by the protocol and by the machine it runs on.
struct ProtocolState {
  ProtocolState(Workload& workload, const ExecutionPlan& plan, const MachineTraits& traits);
  std::span<const double> seen(int ph) const {
    return seen_is_cost ? phase[ph].cost : phase[ph].seen;
  }
  void follow_balancer(int ph);
  // What processor p stopped at index i of its phase-ph list leaves its group besides its times.
  void report_rest(StopReport& report, int ph, int p, std::size_t i) const;

  Workload& workload;
  const ExecutionPlan& plan;
  const int P, M, phases, total;
  const MachineTraits traits;
  const bool seen_is_cost;  // every processor at nominal speed: balancers see the costs
  const std::vector<double> coords;
  const std::optional<ModuleGraph> communication;
  const std::vector<unsigned char> migratable;  // per module; empty: every one may move
  const LoadViewBuilder views;
  std::vector<std::uint64_t> bytes;
  std::vector<PhasePlan> phase;
  std::vector<int> where;  // the processor holding each module's state
  StepRecorder recorder;
  TimelineRecorder timeline;  // on with execution.timeline; the machine sets its base
};

// What the machines differ in. `agent`: who calls, one of those run() starts (a thread of a team,
// or a process's one); the protocol calls the hooks below in the order of one step.
class StepMachine {
 public:
  virtual ~StepMachine() = default;
  // Runs body(agent) on each of the machine's agents at once.
  virtual void run(const std::function<void(int)>& body) = 0;
  // The agent's processors create their initial states. False: the run stopped.
  virtual bool place(int agent) = 0;
  // Phase ph of step s: the agent's processors run their modules (in-step groups synchronising)
  // and measure them; phase 0 starts the step's times.
  virtual void run_phase(int agent, int s, int ph) = 0;
  // Every agent calls it after a phase: `f` runs once on every processor's measurements (on the
  // last thread to arrive, or on every rank after they exchanged them). False: the run stopped.
  virtual bool meet(int agent, int s, int ph, const std::function<void()>& f) = 0;
  // The workload's serial end of step s (inside meet): its step metrics, or what stands for them.
  virtual std::vector<double> finish_step(int s) = 0;
  // The view's measurements of phase ph (state sizes, busy times) before a decision; the view's
  // step number.
  virtual int measure_view(int s, int ph, std::vector<double>& busy) = 0;
  // The phase's decision between steps, recorded as its processors' decision times; nullopt:
  // every agent takes it (decide_everywhere).
  virtual std::optional<Decision> decide(int ph, Balancer& balancer, const LoadView& view) = 0;
  // Every agent decides on `view`; one result, checked equal to the others, goes to `apply`.
  virtual bool decide_everywhere(int agent, int ph, Balancer& balancer, const LoadView& view,
                                 const std::function<void(Decision&)>& apply);
  // The agent's processors receive the states of `moved` their next phase runs; `then` runs once
  // after every move. False: the run stopped.
  virtual bool move(int agent, int ph, std::span<const int> moved,
                    const std::function<void()>& then) = 0;
  // Closing a step: the serial and wall seconds its record counts (before the recorder closes
  // it), then the machine's own figures into the closed record.
  struct StepEnd {
    double serial = 0, wall = 0;
  };
  virtual StepEnd end_step(int s) = 0;
  virtual void finish_record(StepRecord& rec) = 0;
  // Whether handing `rec` to the sink is timed on the thread CPU clock (else short ones by wall).
  virtual bool exact_hand_over(const StepRecord&) const { return true; }
  // After the last step, on the calling thread (every state where the run's result reads it).
  virtual void end_run(ExecutionResult&) {}
  // Owners of phase ph to start from instead of the static partition (empty: partition).
  virtual std::span<const int> start_owner(int) const { return {}; }
  // Checks a partition every process computed alike, or the partitioner's error in this process
  // (`failure`, empty: none), which fails the run; the machine's processes fail it together.
  virtual void agree(std::span<const int>, const std::string& failure) const;
};

// `balancer`'s decision on `view` into `d`, or the message of what it threw (empty: none): a
// user's balancer that raises or answers wrong fails the run, which a machine of several processes
// fails on every process alike.
std::string decision_error(Balancer& balancer, const LoadView& view, Decision& d);

// The loop. Runs once: construct, run().
class StepProtocol {
 public:
  StepProtocol(ProtocolState& state, StepMachine& machine, StepSink& sink);
  ExecutionResult run();

 private:
  void partition();
  bool step_phase(int agent, int s, int ph);
  void end_phase(int s, int ph);  // once, inside the phase's meeting
  void decide_between_steps(int s, int ph);
  void record_phase_modules(int ph);
  void finish_step(int s);
  void apply(int ph, Decision& d);
  void plan_moves(int s, int ph);
  void close_step(int s);

  ProtocolState& st_;
  StepMachine& m_;
  StepSink& sink_;
  // What one agent writes between meetings sits on cache lines of its own, away from what every
  // agent reads each step.
  alignas(64) ExecutionResult result_;
  std::vector<double> busy_;  // per processor: the view's busy times
  LoadView view_;             // of the phase's end
  StretchClock record_clock_;
  alignas(64) std::vector<int> moved_;  // modules whose states move before the next phase
  bool changed_ = false, deferred_ = false, move_now_ = false;
  alignas(64) StepRecord rec_;  // the current step's, closed after its last moves
  std::vector<int> start_;      // [F x M]: where each phase's modules were when it began
  std::vector<std::uint64_t> start_bytes_;  // [M]: the states' sizes when the step began
};

}  // namespace lbb
