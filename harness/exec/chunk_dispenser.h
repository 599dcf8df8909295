#pragma once
// A loop's chunks handed out to the threads of a team under a dynamic loop self-scheduling
// technique (balancers/in_step/loop_schedules.h): the technique sizes each chunk, this takes the
// next iterations in order, both under one lock, as a self-scheduling runtime's shared counter.
#include <mutex>
#include <span>

#include "balancers/in_step/loop_schedules.h"

namespace lbb {

struct Chunk {
  int first = 0, count = 0;  // iterations [first, first + count); count 0: none left
};

class ChunkDispenser {
 public:
  ChunkDispenser(LoopTechnique technique, const Params& params, std::span<const double> speed)
      : calculator_(technique, params, speed) {}

  void start(int iterations) {  // a new loop; between barriers
    calculator_.start(iterations);
    next_ = 0;
  }
  Chunk take(int worker) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const Chunk c{next_, calculator_.next(worker)};
    next_ += c.count;
    return c;
  }
  void finished(int worker, const ChunkTiming& timing) {
    const std::lock_guard<std::mutex> lock(mutex_);
    calculator_.finished(worker, timing);
  }

 private:
  std::mutex mutex_;
  ChunkCalculator calculator_;
  int next_ = 0;
};

}  // namespace lbb
