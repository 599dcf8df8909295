#pragma once
// A workload = a kernel + a problem generator + a decomposition into modules + verification
// against a serial reference. Lifecycle: construct (set up the problem) -> init_state for every
// module -> per step: for each phase, run_module for every module (concurrently, on the owner's
// thread; a barrier and a balancing point end every phase), then finish_step (serially) ->
// verify against a serial reference (computed by reference(), or kept from a workload of the
// same parameters). A workload knows nothing of threads or balancers.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/module_graph.h"
#include "core/module_structure.h"
#include "core/params.h"

namespace lbb {

class LevelWorkload;  // workloads/level_workload.h

// Access to the module states wherever the harness keeps them. A module's state is the bytes a
// migration copies; the workload lays it out and the harness moves it.
class ModuleStates {
 public:
  virtual ~ModuleStates() = default;
  virtual std::span<std::byte> state(int module) = 0;
  // Changes the size of a module's state, keeping its first min(old, new) bytes; added bytes are
  // zero. Workloads whose modules gain and lose data (particles crossing cell boundaries) call
  // it from finish_step only, so it is never called concurrently.
  virtual void resize(int module, std::size_t bytes) = 0;
};

struct Verification {
  bool passed = false;
  std::string detail;             // what was compared, in one line
  double error = 0;               // the compared quantity (e.g. relative difference)
  double tolerance = 0;           // passed means error <= tolerance (and any stated checks)
  double checksum = 0;            // of the run's result
  double reference_checksum = 0;  // of the serial reference
  bool simulated = false;  // no kernel ran (execution.executor: simulate): passed, not verified

  // The verification of a simulated run: nothing ran, so nothing is compared.
  static Verification of_simulation() {
    Verification v;
    v.passed = v.simulated = true;
    v.detail = "simulated: no kernel executed, nothing verified";
    return v;
  }
};

// What a workload keeps of its serial reference computation, opaque to whoever holds it. It
// depends only on the problem (the workload's parameters) and the steps run, so one serves every
// run of the same problem, whatever its processors, balancer or repetition.
class SerialReference {
 public:
  explicit SerialReference(int steps_run) : steps_run_(steps_run) {}
  virtual ~SerialReference() = default;
  int steps_run() const { return steps_run_; }

 private:
  int steps_run_;
};

// The workload's own reference type R of `steps_run` steps; throws when `reference` is another.
template <class R>
const R& reference_as(const SerialReference& reference, int steps_run) {
  const auto* mine = dynamic_cast<const R*>(&reference);
  if (!mine || reference.steps_run() != steps_run)
    throw std::invalid_argument("verification against the serial reference of another problem");
  return *mine;
}

// A named per-step quantity the workload reports (e.g. the residual norm), archived per step.
struct StepMetric {
  std::string name;
  std::string doc;
};

// A run attribute the workload reports after verification (e.g. node counts), archived.
struct WorkloadAttribute {
  std::string name;
  double value = 0;
};

class Workload {
 public:
  virtual ~Workload() = default;

  virtual int module_count() const = 0;
  virtual ModuleStructure structure() const = 0;
  virtual int dimensions() const { return 0; }
  virtual std::vector<double> module_coords() const { return {}; }  // dimensions per module
  // The workload's own cost model, in arbitrary units, for static partitioners (all phases).
  virtual std::vector<double> predicted_weights() const = 0;

  // Phases of one step. Each phase runs every module once and ends in a barrier that is a
  // balancing point of its own, with its own assignment (TRFD's two loops are balanced
  // separately: Zaki, Li & Parthasarathy 1997).
  virtual int phases() const { return 1; }
  // The cost model of one phase; a one-phase workload's is predicted_weights().
  virtual std::vector<double> predicted_phase_weights(int /*phase*/) const {
    return predicted_weights();
  }

  // For the asynchronous executor (Iqbal, Saltz & Bokhari 1986, section 2): the modules whose
  // data of step s-1 run_module(m, s) reads besides m's own state (m's links), when that is all
  // it reads. The workload keeps that data readable until every linked module has run step s (two
  // versions suffice), and finish_step(s) reads only data of step s, since later steps may run
  // while it runs. Empty (the default): the workload needs bulk-synchronous steps.
  virtual std::optional<ModuleGraph> dependencies() const { return std::nullopt; }
  // Horton 1993's communication graph: which modules exchange data every step (neighbouring
  // parts of the problem), whether or not that is all a module reads. Balancers that orient
  // their moves by the problem (multilevel, `bisect: communication`) see the graph it induces
  // between processors. Defaults to dependencies(); empty: the workload gives none.
  virtual std::optional<ModuleGraph> communication() const { return dependencies(); }
  // The modules whose outputs each module reads, the edges of exchanged_bytes: more than
  // communication()'s neighbours where a phase reads a transpose (TRFD's, every module's rows).
  // Defaults to communication().
  virtual std::optional<ModuleGraph> exchange_graph() const { return communication(); }
  // The bytes module `to` reads in phase `phase` of step `step` (as run_module numbers it,
  // warm-up included) of what its neighbour `from` (in exchange_graph()) wrote: what crosses the
  // edge from -> to (an LBDatafile's communication bytes). 0: it reads none of it (the default).
  virtual double exchanged_bytes(int /*from*/, int /*to*/, int /*step*/, int /*phase*/) const {
    return 0;
  }
  // What the last finish_step moved from module states into others (in (from, to) order, each
  // pair once): bytes that cross between modules besides exchanged_bytes. Empty: none.
  virtual std::vector<ModuleTransfer> step_transfers() const { return {}; }
  // False where no balancer may move the module (an imported task with vt's migratable: false):
  // the executors keep it with its owner (LoadView::migratable).
  virtual bool migratable(int /*module*/) const { return true; }
  // Where a module that may not move lives at P processors (vt's home), whatever a static
  // partitioner proposes; -1: where the partition puts it.
  virtual int home(int /*module*/, int /*processors*/) const { return -1; }

  // The initial state size; finish_step may change it later through ModuleStates::resize.
  virtual std::size_t state_bytes(int module) const = 0;
  // Writes the initial state of a module into a buffer of state_bytes(module).
  virtual void init_state(int module, std::span<std::byte> state) const = 0;
  // One phase of one step of one module. Called concurrently for distinct modules of the same
  // phase; phase is in [0, phases()).
  virtual void run_module(int module, int step, int phase, std::span<std::byte> state) = 0;
  // After every module ran every phase of `step`; serial. Exchange buffers flip here, and a
  // workload whose modules gain or lose data moves it between states here.
  virtual void finish_step(int step, ModuleStates& states) = 0;

  // For a run across processes (MPI ranks, harness/mpi/): the workload-owned bytes that
  // run_module(module, step, phase) wrote and other modules or finish_step read, which the harness
  // copies to every process after the phase. False: the workload keeps data it cannot name here,
  // and runs in one process only.
  virtual bool phase_outputs(int /*module*/, int /*step*/, int /*phase*/,
                             std::vector<std::span<std::byte>>& /*out*/) {
    return false;
  }
  // True when finish_step reads or moves other modules' states (bodies crossing cells): a run
  // across processes gives it every state, then keeps only the owners'.
  virtual bool finish_step_reads_states() const { return false; }

  virtual std::vector<StepMetric> step_metrics() const { return {}; }
  // Values of step_metrics() for a finished step, in the same order.
  virtual std::vector<double> step_metric_values(int /*step*/) const { return {}; }

  // The serial reference computation of `steps_run` steps of this problem, from its initial
  // states in private buffers.
  virtual std::shared_ptr<const SerialReference> reference(int steps_run) const = 0;
  // Compares the result after `steps_run` steps with `reference`, which reference(steps_run) of
  // this workload or of one with the same parameters computed.
  virtual Verification verify_against(ModuleStates& states, int steps_run,
                                      const SerialReference& reference) = 0;
  // Against a reference computed now.
  Verification verify(ModuleStates& states, int steps_run) {
    return verify_against(states, steps_run, *reference(steps_run));
  }
  virtual std::vector<WorkloadAttribute> attributes() const { return {}; }
};

struct WorkloadInfo {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<Workload>(const Params&)> make;
  // The module count the parameters give, so a config with P > modules is refused before setup.
  std::function<int(const Params&)> module_count;
  // Set instead of `make` for a workload whose modules are born level by level (tree search):
  // the runner hands it to the level executor.
  std::function<std::unique_ptr<LevelWorkload>(const Params&)> make_levels = nullptr;
  // Bytes a run of these parameters on `processors` holds (module states, the workload's own
  // data, the verification's reference copies), estimated without building anything, so a
  // config that cannot fit is refused before setup. May throw std::invalid_argument for sizes
  // the kernels cannot index. Null: small at any parameters.
  std::function<double(const Params&, int processors)> state_estimate = nullptr;
  // A cost source with no kernel (workloads/synthetic_costs.h): only the simulate executor
  // runs it.
  bool simulated_only = false;
  // Hwang & Hong's random task trees (workloads/task_tree.h): costs born generation by
  // generation, which the simulate executor balances level by level.
  bool task_tree = false;
  // Whether these parameters give the modules a communication graph (Workload::communication()),
  // so a balancer that needs one is refused by `validate`, not mid-run. Null: never.
  std::function<bool(const Params&)> communicates = nullptr;
  // Whether these parameters give the modules coordinates (Workload::module_coords()), so a
  // partitioner that needs them is refused by `validate`, not mid-run. Null: never.
  std::function<bool(const Params&)> has_coordinates = nullptr;
};

// The workloads of this library. Configs name these and the harness's own kinds (`trace`, which
// reads files): find_workload_kind (harness/formats/trace_workload.h) is the one lookup of both.
std::span<const WorkloadInfo> workload_registry();

}  // namespace lbb
