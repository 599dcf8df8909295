#include "harness/sim/omp_schedule_model.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>
#include <utility>
#include <vector>

namespace lbb {

namespace {

// libgomp's static schedule without a chunk: thread i's block of q or q + 1 modules.
double static_finish(std::span<const double> nominal, std::span<const double> speed) {
  const std::size_t M = nominal.size(), P = speed.size(), q = M / P, extra = M % P;
  double finish = 0;
  std::size_t first = 0;
  for (std::size_t p = 0; p < P; ++p) {
    const std::size_t n = q + (p < extra ? 1 : 0);
    double busy = 0;
    for (std::size_t m = first; m < first + n; ++m) busy += nominal[m];
    finish = std::max(finish, busy / speed[p]);
    first += n;
  }
  return finish;
}

// Self-scheduling in index order: the processor idle first takes the next `size(remaining)`.
double self_scheduled_finish(std::span<const double> nominal, std::span<const double> speed,
                             const std::function<int(int)>& size) {
  using Event = std::pair<double, int>;  // (clock, processor)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> idle;
  for (int p = 0; p < static_cast<int>(speed.size()); ++p) idle.push({0.0, p});
  const int M = static_cast<int>(nominal.size());
  double finish = 0;
  for (int next = 0; next < M;) {
    const auto [clock, p] = idle.top();
    idle.pop();
    const int n = std::clamp(size(M - next), 1, M - next);
    double seconds = 0;
    for (int m = next; m < next + n; ++m) seconds += nominal[m] / speed[p];
    next += n;
    finish = std::max(finish, clock + seconds);
    idle.push({clock + seconds, p});
  }
  return finish;
}

}  // namespace

std::string omp_model_problem(InStepSchedule kind) {
  switch (kind) {
    case InStepSchedule::kOmpStatic:
    case InStepSchedule::kOmpDynamic:
    case InStepSchedule::kOmpGuided:
    case InStepSchedule::kOmpTasks:
      return "";
    case InStepSchedule::kOmpRuntime:
      return "omp_runtime: the runtime picked the schedule (OMP_SCHEDULE), which the model does "
             "not know";
    default:
      return "not an OpenMP runtime schedule";
  }
}

double omp_phase_finish(const ScheduleChoice& schedule, std::span<const double> nominal,
                        std::span<const double> speed) {
  if (std::string why = omp_model_problem(schedule.kind); !why.empty())
    throw std::invalid_argument(why);
  if (speed.empty()) throw std::invalid_argument("no processors");
  const int P = static_cast<int>(speed.size()), chunk = std::max(1, schedule.chunk);
  switch (schedule.kind) {
    case InStepSchedule::kOmpStatic:
      return static_finish(nominal, speed);
    case InStepSchedule::kOmpGuided:
      return self_scheduled_finish(nominal, speed,
                                   [&](int r) { return std::max(chunk, (r + P - 1) / P); });
    case InStepSchedule::kOmpTasks:
      return self_scheduled_finish(nominal, speed, [](int) { return 1; });
    default:
      return self_scheduled_finish(nominal, speed, [&](int) { return chunk; });
  }
}

}  // namespace lbb
