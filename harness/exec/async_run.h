#pragma once
// The shared state of one asynchronous run (harness/exec/async_executor.h) and each processor's
// loop over it. One mutex guards the module steps, the ownership and the predictive balancer;
// modules run outside it. What an action costs comes from an AsyncWork: the real executors run
// the kernels and copy the states (KernelWork), the simulator looks costs up and charges them
// (harness/sim/sim_async_run.h), so both follow one take rule, one dependency rule, one order. A
// processor with nothing ready sleeps on an epoch count that every finished module step and every
// take advances (a SleepWord, harness/exec/sleep_word.h).
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "balancers/async/predictive.h"
#include "core/module_graph.h"
#include "harness/base/module_store.h"
#include "harness/exec/emulated_run.h"
#include "harness/exec/sleep_word.h"
#include "workloads/workload.h"

namespace lbb {

// One stretch of a processor's modelled clock.
struct ClockSpan {
  enum Kind : std::uint8_t { kModule, kBalance, kMigration };
  Kind kind;
  double start, end;
};

// What closing a step (every module has run it) recorded, in the order steps closed.
struct ClosedStep {
  double wall = 0;    // wall clock when it closed
  double serial = 0;  // CPU seconds of the workload's finish_step
  std::vector<int> owner;
  std::vector<double> metrics;  // the workload's step metrics
};

// In which order processors act. kArrival: as the host runs the threads, all at once (a host
// with a free core per processor). kModelled: in the order of the modelled clocks, one action
// at a time on one thread (a discrete-event run of the real kernels), a finished step visible to
// the others only from its modelled end on: on a host with fewer free cores than processors, the
// run the modelled clocks describe is then the one a machine of P dedicated processors would
// have run, decisions included.
enum class AsyncOrder { kArrival, kModelled };

struct ModuleTakeRecord {
  double when;  // the taker's modelled clock
  std::uint64_t bytes;
};

struct MigrationCharge {
  std::uint64_t bytes = 0;
  double seconds = 0;  // on the receiver's clock
};

// The work behind an asynchronous run's actions and what each costs on the acting processor's
// modelled clock. Under AsyncOrder::kArrival run_module and migrate are called concurrently for
// different processors (the implementation keeps per-processor state only).
class AsyncWork {
 public:
  virtual ~AsyncWork() = default;
  // Step s of module m on processor p, from modelled time `start`: the seconds it takes.
  virtual double run_module(int m, int s, int p, double start) = 0;
  // Module m's state copied to its new owner.
  virtual MigrationCharge migrate(int m) = 0;
  // What a decision that took `cpu` seconds of the balancer's CPU time costs.
  virtual double decision_seconds(double cpu) const { return cpu; }
  // Whether decision_seconds reads its argument: a modelled charge needs no clock read, and
  // the simulator makes one decision an action (14 M in iqbal1986).
  virtual bool times_decisions() const { return true; }
  // Every module has finished step s (the latest at modelled time `end`): the workload's end of
  // step into c (serial, wall, metrics; c.owner is set).
  virtual void close_step(int s, double end, ClosedStep& c) = 0;
  virtual const LoadTally& load(int p) const = 0;
};

// The real executors' work: the workload's kernels on emulated processors, timed in CPU seconds,
// and the module store's copies.
class KernelWork final : public AsyncWork {
 public:
  KernelWork(Workload& workload, ModuleStore& store, const PlatformEmulation& emulation,
             int processors)
      : workload_(workload), store_(store), emulation_(emulation), load_(processors) {}
  double run_module(int m, int s, int p, double start) override;
  MigrationCharge migrate(int m) override;
  void close_step(int s, double end, ClosedStep& c) override;
  const LoadTally& load(int p) const override { return load_[p]; }
  // A run across processes: the tally of a processor that ran elsewhere.
  void adopt_load(int p, const LoadTally& tally) { load_[p] = tally; }

 private:
  Workload& workload_;
  ModuleStore& store_;
  const PlatformEmulation& emulation_;
  std::vector<LoadTally> load_;
};

// The processes beyond this one that a run spans (harness/mpi/mpi_async_executor.h): which
// processors run here, and what the others must learn. Every call holds the run's lock.
class AsyncPeers {
 public:
  virtual ~AsyncPeers() = default;
  virtual bool here(int processor) const = 0;
  // A module of this process finished `step` at modelled time `end` after `cpu` seconds.
  virtual void finished(int module, int step, int processor, double end, double cpu) = 0;
  // A take between two processors of this process, the module at `step`, the taker's clock
  // at `when`.
  virtual void took(const ModuleTake& take, int step, double when) = 0;
  // A take from a processor elsewhere, asked of its process: returns once answered (the lock
  // released meanwhile), the take applied (AsyncRun::move_module) and the copy's charge given
  // when granted, nothing when refused.
  virtual std::optional<MigrationCharge> take_elsewhere(const ModuleTake& take, double when,
                                                        std::unique_lock<std::mutex>& lock) = 0;
};

class AsyncRun {
 public:
  AsyncRun(AsyncWork& work, const ModuleGraph& graph, int processors, std::vector<int> owner,
           int steps, Predictive* predictive, AsyncOrder order);

  // Processor p's loop, on its own thread, until every module has run every step or a thread
  // failed. Errors are kept (rethrow_if_failed) and stop every processor.
  void processor(int p) noexcept;
  void rethrow_if_failed() const;
  // Keeps e (the first error kept wins) and stops every processor.
  void fail(std::exception_ptr e);

  // A run across processes: processor(p) runs only for processors here; what happens elsewhere
  // arrives through the members below, each called with lock() held.
  void span_processes(AsyncPeers& peers) { peers_ = &peers; }
  std::unique_lock<std::mutex> lock() { return Lock(mutex_); }
  bool over() const { return done(); }
  bool failed() const { return failed_; }
  const std::vector<int>& module_steps() const { return step_; }
  bool movable(int module) const { return !busy_[module]; }
  // Module m ran `step` elsewhere, ending at modelled time `end` after `cpu` seconds.
  void ran_elsewhere(int m, int step, double end, double cpu);
  // A take granted elsewhere, or given away from here: ownership and DEPEND graphs follow.
  void move_module(const ModuleTake& take);
  // After the run, what the processors elsewhere recorded.
  void adopt_processor(int p, std::vector<ClockSpan> spans, double idle_wall);
  void add_takes(std::span<const ModuleTakeRecord> takes);

  int steps() const { return steps_; }
  const std::vector<double>& step_end() const { return step_end_; }  // modelled, per step
  const std::vector<ClosedStep>& closed() const { return closed_; }
  const std::vector<ClockSpan>& spans(int p) const { return spans_[p]; }
  const std::vector<ModuleTakeRecord>& takes() const { return takes_; }
  // Pause rounds a processor with nothing ready spins before it sleeps: the team barrier's rule.
  int wait_spin() const { return spin_; }
  double module_cost(int module, int step) const { return cost_[index(module, step)]; }
  double idle_wall(int p) const { return idle_wall_[p]; }
  const LoadTally& load(int p) const { return work_.load(p); }
  const std::vector<int>& owner() const { return owner_; }

 private:
  using Lock = std::unique_lock<std::mutex>;
  std::size_t index(int module, int step) const {
    return static_cast<std::size_t>(module) * steps_ + step;
  }
  bool done() const { return failed_ || completed_ == static_cast<std::int64_t>(n_) * steps_; }
  void arrival_loop(int p);
  void modelled_loop(int p);
  int ready_module(int p) const;
  double earliest_start(int m, int p) const;
  double start_module(int m, int p);
  double run_module(int m, int p, double start, Lock& lock);  // unlocked while it runs; seconds
  void record_run(int m, int p, double start, double cpu);
  void make_visible(int m);
  // kModelled: the next processor to act, after every finished step that ends before its action.
  void schedule();
  double next_action(int p) const;
  void act(int p, Lock& lock);
  void close_step(int s);
  void take_if_short(int p, Lock& lock);
  void take_elsewhere(const ModuleTake& take, int p, Lock& lock);
  void transfer(int m, int p);
  void wait_for_change(int p, Lock& lock);
  void advance_epoch();

  AsyncWork& work_;
  const ModuleGraph& graph_;
  Predictive* predictive_;
  AsyncPeers* peers_ = nullptr;
  int n_, steps_;
  std::mutex mutex_;
  SleepWord epoch_;                      // bumped at every change a waiting processor may act on
  const int spin_;                       // pause rounds before that sleep (GroupBarrier::spin_for)
  std::vector<int> owner_, step_;        // step_: steps each module has finished
  std::vector<std::vector<int>> owned_;  // per processor: its modules, ascending
  std::vector<char> busy_;               // running or being copied: may not move
  std::vector<int> runs_;                // per (module, step): how often it ran
  std::vector<int> finished_;            // per step: modules that finished it
  int next_close_ = 0;
  std::int64_t completed_ = 0;
  bool failed_ = false;
  std::exception_ptr error_;
  // Modelled time: each processor's clock, each module's last two step ends (by parity: a
  // module's neighbours are never more than one step ahead of it), each step's latest end.
  std::vector<double> module_end_;  // [module][parity]
  std::vector<double> step_end_;
  std::vector<double> cost_;  // per (module, step): CPU seconds
  std::vector<double> clock_;
  std::vector<std::vector<ClockSpan>> spans_;
  std::vector<ModuleTakeRecord> takes_;
  std::vector<ClosedStep> closed_;
  std::vector<double> idle_wall_;
  // kModelled: who acts next, and the finished steps not yet visible.
  struct Pending {
    double end;
    int module, processor;
    bool operator>(const Pending& o) const { return end > o.end; }
  };
  AsyncOrder order_;
  int turn_ = -1;
  std::vector<char> finishing_;   // per processor: its last step is pending
  std::vector<Pending> pending_;  // a min-heap on end
};

}  // namespace lbb
