#pragma once
// The one switch from an in-step schedule to an OpenMP worksharing loop, for every executor that
// self-schedules (module steps and tree levels alike).
#include "harness/base/schedule.h"

namespace lbb {

// Every thread of the team calls it (an orphaned worksharing loop): body(i) runs for each i in
// [0, n) on the thread the schedule hands it to; no barrier at the end. Schedules that are not an
// OpenMP loop (kAssigned, kOmpTasks, kChunked) run nothing here.
template <class Body>
void scheduled_loop(InStepSchedule schedule, int chunk, int n, Body&& body) {
  switch (schedule) {
    case InStepSchedule::kOmpStatic:
#pragma omp for schedule(static) nowait
      for (int i = 0; i < n; ++i) body(i);
      break;
    case InStepSchedule::kOmpDynamic:
#pragma omp for schedule(dynamic, chunk) nowait
      for (int i = 0; i < n; ++i) body(i);
      break;
    case InStepSchedule::kOmpGuided:
#pragma omp for schedule(guided, chunk) nowait
      for (int i = 0; i < n; ++i) body(i);
      break;
    case InStepSchedule::kOmpRuntime:
#pragma omp for schedule(runtime) nowait
      for (int i = 0; i < n; ++i) body(i);
      break;
    case InStepSchedule::kOmpTasks:
    case InStepSchedule::kAssigned:
    case InStepSchedule::kChunked:
      break;
  }
}

}  // namespace lbb
