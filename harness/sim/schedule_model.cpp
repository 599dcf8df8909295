#include "harness/sim/schedule_model.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <stdexcept>
#include <utility>

namespace lbb {

namespace {

// Self-scheduling: the processor idle first reports its last chunk, then takes the next one
// `take(processor, clock)` gives it; a chunk of none leaves it idle for good.
std::vector<ModelledChunk> self_scheduled_chunks(
    std::span<const double> nominal, std::span<const double> speed,
    const std::function<Chunk(int, double)>& take,
    const std::function<void(int, const ChunkTiming&)>& finished) {
  using Event = std::pair<double, int>;  // (clock, processor)
  std::priority_queue<Event, std::vector<Event>, std::greater<>> idle;
  std::vector<std::optional<ChunkTiming>> last(speed.size());
  for (int p = 0; p < static_cast<int>(speed.size()); ++p) idle.push({0.0, p});
  const int M = static_cast<int>(nominal.size());
  std::vector<ModelledChunk> out;
  for (int handed = 0; handed < M && !idle.empty();) {
    const auto [clock, p] = idle.top();
    idle.pop();
    if (last[p]) finished(p, *last[p]);
    const Chunk c = take(p, clock);
    if (c.count <= 0) continue;
    ChunkTiming t{c.count, 0, 0, 0};
    for (int m = c.first; m < c.first + c.count; ++m) {
      const double cost = nominal[m] / speed[p];
      t.seconds += cost, t.square_seconds += cost * cost;
    }
    t.elapsed = t.seconds;
    last[p] = t;
    out.push_back({p, c.first, c.count, clock, clock + t.seconds});
    handed += c.count;
    idle.push({clock + t.seconds, p});
  }
  return out;
}

// The next `size(remaining)` iterations in order, for the OpenMP runtime's schedules.
std::function<Chunk(int, double)> in_order(int M, std::function<int(int)> size) {
  return [M, size = std::move(size), next = 0](int, double) mutable {
    const Chunk c{next, std::min(size(M - next), M - next)};
    next += std::max(0, c.count);
    return c;
  };
}

}  // namespace

std::string schedule_model_problem(InStepSchedule kind) {
  switch (kind) {
    case InStepSchedule::kOmpRuntime:
      return "omp_runtime: the runtime picked the schedule (OMP_SCHEDULE), which the model does "
             "not know";
    case InStepSchedule::kAssigned:
      return "not a schedule";
    default:
      return "";
  }
}

std::function<Chunk(int, double)> openmp_hand_out(const ScheduleChoice& schedule, int M, int P) {
  if (std::string why = schedule_model_problem(schedule.kind); !why.empty())
    throw std::invalid_argument(why);
  if (schedule.kind == InStepSchedule::kChunked)
    throw std::logic_error("a technique's chunks are its ChunkCalculator's");
  const int chunk = std::max(1, schedule.chunk);
  switch (schedule.kind) {
    case InStepSchedule::kOmpStatic:  // libgomp without a chunk: thread p's q or q + 1
      return [M, P, given = std::vector<bool>(P)](int p, double) mutable {
        if (given[p]) return Chunk{0, 0};
        given[p] = true;
        return Chunk{p * (M / P) + std::min(p, M % P), M / P + (p < M % P ? 1 : 0)};
      };
    case InStepSchedule::kOmpGuided:
      return in_order(M, [=](int r) { return std::max(chunk, (r + P - 1) / P); });
    case InStepSchedule::kOmpTasks:
      return in_order(M, [](int) { return 1; });
    default:
      return in_order(M, [=](int) { return chunk; });
  }
}

std::vector<ModelledChunk> modelled_chunks(const ScheduleChoice& schedule,
                                           std::span<const double> nominal,
                                           std::span<const double> speed) {
  if (std::string why = schedule_model_problem(schedule.kind); !why.empty())
    throw std::invalid_argument(why);
  if (speed.empty()) throw std::invalid_argument("no processors");
  const int P = static_cast<int>(speed.size()), M = static_cast<int>(nominal.size());
  if (schedule.kind != InStepSchedule::kChunked)
    return self_scheduled_chunks(nominal, speed, openmp_hand_out(schedule, M, P),
                                 [](int, const ChunkTiming&) {});
  ChunkCalculator c(schedule.technique, schedule.params, speed);
  c.start(M);
  return self_scheduled_chunks(
      nominal, speed, [&](int p, double now) { return c.take(p, now); },
      [&](int p, const ChunkTiming& t) { c.finished(p, t); });
}

double modelled_phase_finish(const ScheduleChoice& schedule, std::span<const double> nominal,
                             std::span<const double> speed) {
  double finish = 0;
  for (const ModelledChunk& c : modelled_chunks(schedule, nominal, speed))
    finish = std::max(finish, c.end);
  return finish;
}

}  // namespace lbb
