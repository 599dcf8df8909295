#pragma once
// A loop's chunks handed out to the threads of a team under a dynamic loop self-scheduling
// technique (balancers/in_step/loop_schedules.h): the technique says which iterations each chunk
// holds (the next ones in order, or static_steal's ranges), under one lock.
#include <mutex>
#include <span>

#include "balancers/in_step/loop_schedules.h"
#include "harness/base/clock.h"

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

// Worker `worker` takes chunks as the technique sizes them until none is left, running
// run(i) -> its wall seconds for each iteration i of a chunk, and reports each chunk's times (its
// iterations' and its own from asking to finishing, the hand-out's wait included).
template <class Run>
void take_chunks(ChunkDispenser& chunks, int worker, Run&& run) {
  for (;;) {
    const double asked = wall_now();
    const Chunk c = chunks.take(worker, asked);
    if (c.count == 0) return;
    ChunkTiming timing{c.count, 0, 0, 0};
    for (int i = c.first; i < c.first + c.count; ++i) {
      const double wall = run(i);
      timing.seconds += wall;
      timing.square_seconds += wall * wall;
    }
    timing.elapsed = wall_now() - asked;
    chunks.finished(worker, timing);
  }
}

}  // namespace lbb
