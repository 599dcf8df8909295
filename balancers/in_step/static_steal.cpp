#include "balancers/in_step/static_steal.h"

#include <algorithm>

namespace lbb {

void StealRanges::start(int iterations, int chunk, int processors) {
  n_ = iterations;
  chunk_ = std::max(1, chunk);
  const int P = std::max(1, processors);
  const int chunks = (n_ + chunk_ - 1) / chunk_;
  whole_blocks_ = P == 1 || chunks < P;
  lo_.assign(P, 0), hi_.assign(P, 0), victim_.assign(P, 0);
  // Whole blocks: LLVM's static_balanced, ranges of iterations; else ranges of chunks, the
  // first `extras` threads one more.
  const int units = whole_blocks_ ? n_ : chunks;
  const int base = units / P, extras = units % P;
  for (int p = 0; p < P; ++p) {
    lo_[p] = p * base + std::min(p, extras);
    hi_[p] = lo_[p] + base + (p < extras ? 1 : 0);
    victim_[p] = (p + 1) % P;
  }
}

Chunk StealRanges::iterations_of(int first_chunk, int chunks) const {
  const int first = first_chunk * chunk_;
  return {first, std::min(n_, (first_chunk + chunks) * chunk_) - first};
}

Chunk StealRanges::take(int worker) {
  if (whole_blocks_) {
    const Chunk block{lo_[worker], hi_[worker] - lo_[worker]};
    lo_[worker] = hi_[worker];
    return block;
  }
  if (lo_[worker] >= hi_[worker] && !steal(worker)) return {};
  return iterations_of(lo_[worker]++, 1);
}

// Up to P - 1 victims, from the last one on; the thief's range becomes the stolen chunks.
bool StealRanges::steal(int worker) {
  const int P = static_cast<int>(lo_.size());
  for (int tries = 1; tries < P; ++tries) {
    int v = victim_[worker];
    if (v == worker) v = (v + 1) % P;
    const int left = hi_[v] - lo_[v];
    if (left < 2) {  // its last chunk is its own
      victim_[worker] = (v + 1) % P;
      continue;
    }
    const int stolen = left > 3 ? left / 4 : 1;
    hi_[v] -= stolen;
    lo_[worker] = hi_[v];
    hi_[worker] = hi_[v] + stolen;
    victim_[worker] = v;
    return true;
  }
  return false;
}

}  // namespace lbb
