#pragma once
// A loop's chunks on P modelled processors: the OpenMP runtime's schedules, sized as libgomp sizes
// them, and the loop self-scheduling techniques (balancers/in_step/loop_schedules.h), each chunk
// of the next iterations in index order (static_steal: its ranges') going to the processor idle
// first (the lower id on a tie); a processor of speed s runs an iteration of nominal cost c in c /
// s, and an adaptive technique is told each chunk's times when its processor next asks. For a
// modelled replay of a run's measured module costs (harness/run/modelled_replay.h) and `lbbench
// schedule`.
#include <functional>
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

// The OpenMP runtime's hand-out of a loop of M iterations to P processors, sized as libgomp sizes
// it: take(processor, clock) gives omp_static's block of that processor once, and omp_dynamic's
// chunks of `chunk`, omp_guided's max(chunk, ceil(R / P)) and omp_tasks' single tasks in order to
// whoever asks; a chunk of none when nothing is left for it. For the kinds a runtime hands out,
// not kChunked (a ChunkCalculator's) nor those schedule_model_problem refuses.
std::function<Chunk(int, double)> openmp_hand_out(const ScheduleChoice& schedule, int M, int P);

// One loop over `nominal`: the OpenMP runtime's hand-out (omp_static's contiguous blocks, the
// first M mod P threads one iteration more; omp_tasks as any idle thread taking the next task,
// the runtime's queue order not modelled), or a technique's chunks as its ChunkCalculator sizes
// them. Throws std::invalid_argument for a
// schedule schedule_model_problem refuses.
std::vector<ModelledChunk> modelled_chunks(const ScheduleChoice& schedule,
                                           std::span<const double> nominal,
                                           std::span<const double> speed);

// When the last processor ends the loop: the latest end of modelled_chunks.
double modelled_phase_finish(const ScheduleChoice& schedule, std::span<const double> nominal,
                             std::span<const double> speed);

}  // namespace lbb
