#pragma once
// In-step self-schedulers: instead of following an assignment, the threads take a step's (or a
// tree level's) work as they go. They are the baselines users compare balancers with, measured
// the same way. Config: - { schedule: NAME, param: value }. Module workloads run them in the
// self-scheduled executor (harness/self_scheduled_executor.h), level workloads in the level
// executor (harness/level_executor.h).
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "balancers/in_step/loop_schedules.h"
#include "core/params.h"
#include "workloads/workload.h"

namespace lbb {

enum class InStepSchedule {
  kAssigned,    // no schedule: each module or task runs where an assignment puts it
  kOmpStatic,   // omp for schedule(static): contiguous blocks, one per thread
  kOmpDynamic,  // omp for schedule(dynamic, chunk): an idle thread takes the next chunk
  kOmpGuided,   // omp for schedule(guided, chunk): shrinking chunks, at least `chunk`
  kOmpTasks,    // each thread spawns OpenMP tasks for its own work; idle threads run any
  kOmpRuntime,  // omp for schedule(runtime): OMP_SCHEDULE (or a preloaded runtime) picks it
  kChunked,     // a dynamic loop self-scheduling technique sizes each chunk
                // (balancers/in_step/loop_schedules.h)
};

struct ScheduleInfo {
  std::string name;
  InStepSchedule kind;
  std::string summary;
  std::vector<ParamSpec> params;
  LoopTechnique technique = LoopTechnique::kSS;  // of kChunked
};

// Every schedule, in the order `lbbench list` shows them.
std::span<const ScheduleInfo> schedule_registry();
const ScheduleInfo* find_schedule(std::string_view name);

// What a config entry's schedule asks the executor for.
struct ScheduleChoice {
  InStepSchedule kind = InStepSchedule::kAssigned;
  int chunk = 1;                                 // kOmpDynamic, kOmpGuided
  LoopTechnique technique = LoopTechnique::kSS;  // kChunked, with its resolved parameters
  Params params;
};

// The per-step metric of auto4omp runs, real and simulated: the candidate chosen.
StepMetric schedule_choice_metric();

// kAssigned for an empty name; throws std::invalid_argument for an unknown one. `params` are
// the resolved parameters of the schedule.
ScheduleChoice schedule_choice(const std::string& name, const Params& params);

}  // namespace lbb
