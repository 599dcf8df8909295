#pragma once
// The state the other executors' runs start from (the step protocol keeps its own,
// step_protocol.h), built once when the run is: the team of P processors, the emulated platform
// over the run's own start, the recorder of the processors' times, and where the records go. A
// run class (SelfScheduledRun, LevelRun, the async run) derives from the context its workload's
// shape needs, so that its steps read these members under the same names in every executor.
#include <span>

#include "harness/base/clock.h"
#include "harness/exec/executor.h"
#include "harness/exec/step_recorder.h"
#include "harness/exec/team.h"

namespace lbb {

class RunContext {
 protected:
  // `phases`: how many phases the recorder keeps per step.
  RunContext(int processors, std::span<const double> speed, const ExternalLoad& load, int phases,
             StepSink& sink)
      : sink_(sink),
        P_(processors),
        run_start_(wall_now()),
        emulation_(speed, load, run_start_),
        team_(processors, emulation_),
        recorder_(speed, phases) {}

  StepSink& sink_;
  const int P_;
  const double run_start_;  // wall clock
  const PlatformEmulation emulation_;
  Team team_;
  StepRecorder recorder_;
};

// A run of a module workload: the context, the workload with its states and the plan, and the
// counts every step loop reads (modules, phases, steps warm-up included).
class ModuleRunContext : protected RunContext {
 protected:
  ModuleRunContext(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                   StepSink& sink)
      : RunContext(plan.processors, plan.speed, plan.external_load, workload.phases(), sink),
        workload_(workload),
        store_(store),
        plan_(plan),
        M_(workload.module_count()),
        phases_(workload.phases()),
        total_(plan.warmup + plan.steps) {}

  Workload& workload_;
  ModuleStore& store_;
  const ExecutionPlan& plan_;
  const int M_, phases_, total_;
};

}  // namespace lbb
