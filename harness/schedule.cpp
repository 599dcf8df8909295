// The single table of in-step schedules.
#include "harness/schedule.h"

namespace lbb {

std::span<const ScheduleInfo> schedule_registry() {
  static const std::vector<ScheduleInfo> all = {
      {"omp_dynamic",
       "OpenMP schedule(dynamic, chunk): an idle thread takes the next chunk of tasks, wherever "
       "they were created (level workloads)",
       {int_param("chunk", 1, "tasks per chunk", 1, 1 << 24)}},
      {"omp_tasks",
       "each processor spawns its own tasks as OpenMP tasks; idle threads run other "
       "processors' tasks from the runtime's queue (level workloads)",
       {}},
  };
  return all;
}

const ScheduleInfo* find_schedule(std::string_view name) {
  for (const auto& info : schedule_registry())
    if (info.name == name) return &info;
  return nullptr;
}

}  // namespace lbb
