#pragma once
// A loop's chunks handed out to the threads of a team under a dynamic loop self-scheduling
// technique (balancers/in_step/loop_schedules.h): the technique says which iterations each chunk
// holds (the next ones in order, or static_steal's ranges), under one lock.
#include <mutex>
#include <span>

#include "balancers/in_step/loop_schedules.h"

namespace lbb {

class ChunkDispenser {
 public:
  ChunkDispenser(LoopTechnique technique, const Params& params, std::span<const double> speed)
      : calculator_(technique, params, speed) {}

  void start(int iterations, double now) {  // a new loop at wall time `now`; between barriers
    calculator_.start(iterations);
    start_ = now;
  }
  Chunk take(int worker, double now) {
    const std::lock_guard<std::mutex> lock(mutex_);
    return calculator_.take(worker, now - start_);
  }
  int selected() const { return calculator_.selected(); }  // auto4omp's (between barriers)
  void finished(int worker, const ChunkTiming& timing) {
    const std::lock_guard<std::mutex> lock(mutex_);
    calculator_.finished(worker, timing);
  }

 private:
  std::mutex mutex_;
  ChunkCalculator calculator_;
  double start_ = 0;
};

}  // namespace lbb
