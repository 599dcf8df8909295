#pragma once
// `workload: { kind: trace, file: ... }`: an imported load trace (harness/formats/trace.h) as a
// workload of the simulator. Its tasks are the modules, its phases (vt) or steps (CSV) the steps
// (or a step's phases, where lbbench's export of a run of several phases says so), its
// communications the modules' communication graph, and what a move copies their state bytes.
// The simulate executor takes the costs from it (TraceStream) and starts from the trace's own
// ranks (rank r on processor r mod P) unless the balancer entry names a static partitioner.
// Kept in the harness: the workloads library knows nothing of files.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/formats/trace.h"
#include "harness/sim/cost_stream.h"
#include "workloads/workload.h"

namespace lbb {

class TraceWorkload final : public Workload, public CostSource {
 public:
  // structure: as the trace records it (lbbench's export), unless `structure` overrides it.
  TraceWorkload(std::shared_ptr<const Trace> trace, double default_bytes,
                std::optional<ModuleStructure> structure = std::nullopt);
  static WorkloadInfo info();

  // Costs, owners and busy times for P processors; `partitioned`: a static partitioner places
  // the modules (else the trace's ranks do).
  std::shared_ptr<CostStream> stream(int processors, bool partitioned) const override;

  const Trace& trace() const { return *trace_; }
  int module_count() const override { return trace_->modules; }
  ModuleStructure structure() const override { return structure_; }
  int dimensions() const override { return trace_->dimensions; }
  std::vector<double> module_coords() const override { return trace_->coords; }
  // The first step's costs: what a static partitioner knows before the run.
  std::vector<double> predicted_weights() const override;
  // A run of several phases exported (lbbench's export): its phases, each balanced on its own.
  int phases() const override { return trace_->phases_per_step; }
  std::vector<double> predicted_phase_weights(int phase) const override;
  std::optional<ModuleGraph> dependencies() const override { return std::nullopt; }
  std::optional<ModuleGraph> communication() const override;
  std::size_t state_bytes(int module) const override;
  bool migratable(int module) const override { return trace_->entity[module].migratable; }
  // Its entity's home, else its first recorded owner, rank r on processor r mod P.
  int home(int module, int processors) const override;
  void init_state(int, std::span<std::byte>) const override {}
  void run_module(int, int, int, std::span<std::byte>) override;  // throws: no kernel
  void finish_step(int, ModuleStates&) override {}
  std::shared_ptr<const SerialReference> reference(int steps_run) const override {
    return std::make_shared<const SerialReference>(steps_run);
  }
  Verification verify_against(ModuleStates&, int, const SerialReference&) override {
    return Verification::of_simulation();
  }

 private:
  std::shared_ptr<const Trace> trace_;
  double default_bytes_;
  ModuleStructure structure_;
};

// Why a run of `steps` steps (warm-up included) cannot run on the trace its parameters name; ""
// when it can.
std::string trace_steps_problem(const Params& params, int steps);

// Where a run at `speeds` (per processor; empty: all 1) of the trace its parameters name runs at
// other speeds than the trace recorded (its files' speeds, else all 1), what the run does about
// it; "" when they agree. The costs are the recorded times x the recording's speeds (speed 1),
// so the run's times follow its own speeds: a what-if, not the recording.
std::string trace_speeds_note(const Params& params, std::span<const double> speeds);

// Where the trace its parameters name recorded external load (tasks' attributes.external_load),
// that the run takes its costs without it; "" when it recorded none.
std::string trace_load_note(const Params& params);

// The workload registry's kinds plus `trace`: the one lookup of a workload by name, for configs,
// `list`, the runner and the tests alike.
const WorkloadInfo* find_workload_kind(std::string_view name);
std::vector<const WorkloadInfo*> workload_kinds();

}  // namespace lbb
