#pragma once
// In-step self-schedulers: instead of following an assignment, the threads take a step's (or a
// tree level's) work as they go. They are the baselines users compare balancers with, measured
// the same way. Config: - { schedule: NAME, param: value }.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/params.h"

namespace lbb {

struct ScheduleInfo {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
};

// Every schedule, in the order `lbbench list` shows them.
std::span<const ScheduleInfo> schedule_registry();
const ScheduleInfo* find_schedule(std::string_view name);

}  // namespace lbb
