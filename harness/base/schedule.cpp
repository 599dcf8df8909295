// The single table of in-step schedules.
#include "harness/base/schedule.h"

#include <stdexcept>

namespace lbb {

std::span<const ScheduleInfo> schedule_registry() {
  static const std::vector<ScheduleInfo> all = [] {
    std::vector<ScheduleInfo> table = {
        {"omp_static",
         InStepSchedule::kOmpStatic,
         "OpenMP schedule(static): each thread runs one contiguous block of the step's modules "
         "(a level's tasks), the same every step",
         {}},
        {"omp_dynamic",
         InStepSchedule::kOmpDynamic,
         "OpenMP schedule(dynamic, chunk): an idle thread takes the next chunk of modules (tasks), "
         "wherever their state lives",
         {int_param("chunk", 1, "modules (tasks) per chunk", 1, 1 << 24)}},
        {"omp_guided",
         InStepSchedule::kOmpGuided,
         "OpenMP schedule(guided, chunk): an idle thread takes a chunk proportional to the "
         "remaining modules (tasks) over the threads, never smaller than chunk",
         {int_param("chunk", 1, "smallest chunk, modules (tasks)", 1, 1 << 24)}},
        {"omp_tasks",
         InStepSchedule::kOmpTasks,
         "each thread spawns its own modules (those whose state it placed; a level's tasks it "
         "created) as OpenMP tasks; idle threads run any queued task",
         {}},
        {"omp_runtime",
         InStepSchedule::kOmpRuntime,
         "OpenMP schedule(runtime): the OMP_SCHEDULE environment variable (or a runtime the user "
         "preloads, such as LB4OMP's) picks the schedule",
         {}},
    };
    for (const LoopTechniqueInfo& t : loop_technique_registry())
      table.push_back({t.name, InStepSchedule::kChunked, t.summary, t.params, t.technique});
    return table;
  }();
  return all;
}

const ScheduleInfo* find_schedule(std::string_view name) {
  for (const auto& info : schedule_registry())
    if (info.name == name) return &info;
  return nullptr;
}

StepMetric schedule_choice_metric() {
  return {"schedule_choice",
          "auto4omp: the candidate the step's last loop ran under, its place in `candidates` "
          "from 0"};
}

ScheduleChoice schedule_choice(const std::string& name, const Params& params) {
  ScheduleChoice c;
  if (name.empty()) return c;
  const ScheduleInfo* info = find_schedule(name);
  if (!info) throw std::invalid_argument("unknown schedule " + name);
  c.kind = info->kind;
  for (const ParamSpec& spec : info->params)
    if (spec.name == "chunk") c.chunk = static_cast<int>(params.integer("chunk"));
  c.technique = info->technique;
  c.params = params;
  // A technique refuses values its formula cannot take (fiss's one stage) as it is built: here,
  // where a command or a run asks for it, rather than in the middle of a run.
  if (c.kind == InStepSchedule::kChunked)
    static_cast<void>(ChunkCalculator(c.technique, params, std::vector{1.0}));
  return c;
}

}  // namespace lbb
