#pragma once
// LLVM OpenMP's schedule(static_steal) (kmp_dispatch.cpp, kmp_sch_static_steal): the loop's
// chunks of `chunk` iterations are split into P contiguous ranges, one per thread, as a static
// schedule would; a thread takes its own range's chunks front first, one at a time, and once its
// range is empty it steals from the back of another's: a quarter of the victim's chunks left
// (one when four or fewer are), never the victim's last one. Victims are tried round robin from
// the thread's last victim (its right neighbour first). Fewer chunks than threads, or one
// thread: each takes its static block whole. Not thread-safe: the caller holds a lock.
#include <vector>

namespace lbb {

struct Chunk {
  int first = 0, count = 0;  // iterations [first, first + count); count 0: none left
};

class StealRanges {
 public:
  void start(int iterations, int chunk, int processors);
  Chunk take(int worker);

 private:
  Chunk iterations_of(int first_chunk, int chunks) const;
  bool steal(int worker);

  int n_ = 0, chunk_ = 1;
  bool whole_blocks_ = false;
  // Per thread: its range [lo, hi) of chunk numbers and the victim it tries first.
  std::vector<int> lo_, hi_, victim_;
};

}  // namespace lbb
