#pragma once
// A loop's chunks on P modelled processors: the OpenMP runtime's schedules, sized as libgomp sizes
// them, and the loop self-scheduling techniques (balancers/in_step/loop_schedules.h), each chunk
// of the next iterations in index order (static_steal: its ranges') going to the processor idle
// first (the lower id on a tie); a processor of speed s runs an iteration of nominal cost c in c /
// s, and an adaptive technique is told each chunk's times when its processor next asks. For a
// modelled replay of a run's measured module costs (harness/run/modelled_replay.h) and `lbbench
// schedule`.
#include <span>
#include <string>
#include <vector>

#include "harness/base/schedule.h"

namespace lbb {

struct ModelledChunk {
  int processor = 0, first = 0, count = 0;  // iterations [first, first + count)
  double start = 0, end = 0;                // modelled seconds from the loop's start
};

// "" when modelled_chunks models the schedule, else why not.
std::string schedule_model_problem(InStepSchedule kind);

// One loop over `nominal`: omp_static's contiguous blocks (the first M mod P threads one
// iteration more), omp_dynamic's chunks of `chunk`, omp_guided's max(chunk, ceil(R / P)),
// omp_tasks as any idle thread taking the next task (the runtime's queue order is not modelled),
// and a technique's chunks as its ChunkCalculator sizes them. Throws std::invalid_argument for a
// schedule schedule_model_problem refuses.
std::vector<ModelledChunk> modelled_chunks(const ScheduleChoice& schedule,
                                           std::span<const double> nominal,
                                           std::span<const double> speed);

// When the last processor ends the loop: the latest end of modelled_chunks.
double modelled_phase_finish(const ScheduleChoice& schedule, std::span<const double> nominal,
                             std::span<const double> speed);

}  // namespace lbb
