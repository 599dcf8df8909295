#pragma once
// The OpenMP runtime's loop schedules on P modelled processors, for a modelled replay of a run's
// measured module costs (harness/run/modelled_replay.h): which processor would have run which
// chunk had every thread had a core of its own. Chunks go out in index order to the processor
// that is idle first (the lower id on a tie), sized as libgomp sizes them; a processor of speed s
// runs a module of nominal cost c in c / s. The loop self-scheduling techniques (ss, gss, awf_b,
// ...) are the simulator's own (harness/sim/sim_schedule_run.h).
#include <span>
#include <string>

#include "harness/base/schedule.h"

namespace lbb {

// "" when omp_phase_finish models the schedule, else why not.
std::string omp_model_problem(InStepSchedule kind);

// When the last of `speed.size()` processors ends one loop over `nominal`: omp_static's
// contiguous blocks (the first M mod P threads one module more), omp_dynamic's chunks of
// `chunk`, omp_guided's max(chunk, ceil(R / P)); omp_tasks as any idle thread taking the next
// task (the runtime's queue order is not modelled). Throws std::invalid_argument for a schedule
// omp_model_problem refuses.
double omp_phase_finish(const ScheduleChoice& schedule, std::span<const double> nominal,
                        std::span<const double> speed);

}  // namespace lbb
