#include "balancers/partition/chain_probe.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "balancers/partition/partition_input.h"

namespace lbb {

Owners chain_owners(const ChainPartition& partition) {
  Owners owner(partition.first.back());
  for (int k = 0; k < partition.processors(); ++k)
    std::fill(owner.begin() + partition.first[k], owner.begin() + partition.first[k + 1], k);
  return owner;
}

namespace {

// The prefix sums of the last ChainLoads this thread destroyed: the next one reuses their memory
// instead of faulting in fresh pages (8 MB at a million modules, more time than the sums).
thread_local std::vector<double> spare_prefix;

struct WeightPass {
  double sum = 0, largest = 0, smallest = 0;
};

// Four weights at a time, as one vector (GCC's vector extension: one instruction per operation
// on any x86-64, SSE2 pairs in a portable build).
using Lanes = double __attribute__((vector_size(4 * sizeof(double))));

// One pass: prefix sums into out[0..m] and the largest and smallest weight. A negative weight
// shows in the smallest, a NaN or infinite one in the sum. The sum is one chain of additions in
// chain order (the bottlenecks depend on its rounding); the largest and smallest are kept in four
// lanes of one vector, which takes them off that chain and out of its way: as scalars, their
// eight comparisons per four weights competed with the chain's additions for the same units and
// the pass cost 1.15x the sums alone. (Kept out of line: inlined into the constructor, GCC 12
// carried the maximum through a general register, tripling the pass.)
[[gnu::noinline]] WeightPass prefix_sums(std::span<const double> weights, double* out) {
  constexpr std::size_t kLanes = 4;
  Lanes largest{}, smallest{};
  const std::size_t m = weights.size();
  const double* w = weights.data();
  double sum = 0;
  out[0] = 0;
  std::size_t i = 0;
  for (; i + kLanes <= m; i += kLanes) {
    Lanes v;
    std::memcpy(&v, w + i, sizeof v);
    largest = largest < v ? v : largest;  // std::max and std::min, lane by lane
    smallest = v < smallest ? v : smallest;
    for (std::size_t j = 0; j < kLanes; ++j) out[i + j + 1] = sum += w[i + j];
  }
  for (; i < m; ++i) {
    largest[0] = std::max(largest[0], w[i]);
    smallest[0] = std::min(smallest[0], w[i]);
    out[i + 1] = sum += w[i];
  }
  WeightPass pass{sum, largest[0], smallest[0]};
  for (std::size_t j = 1; j < kLanes; ++j) {
    pass.largest = std::max(pass.largest, largest[j]);
    pass.smallest = std::min(pass.smallest, smallest[j]);
  }
  return pass;
}

}  // namespace

ChainLoads::ChainLoads(std::span<const double> weights, std::span<const double> speeds)
    : modules_(static_cast<int>(weights.size())),
      prefix_(std::exchange(spare_prefix, {})),
      speed_(speeds.begin(), speeds.end()) {
  check_partition_input({}, speeds);
  prefix_.resize(weights.size() + 1);  // fills only what the reused memory lacks
  const WeightPass pass = prefix_sums(weights, prefix_.data());
  if (!(pass.smallest >= 0) || !std::isfinite(pass.sum)) check_partition_input(weights, speeds);
  max_weight_ = pass.largest;
  for (int k = 0; k < processors(); ++k) {
    total_speed_ += speed_[k];
    if (speed_[k] > speed_[fastest_]) fastest_ = k;
  }
}

ChainLoads::~ChainLoads() {
  if (prefix_.capacity() > spare_prefix.capacity()) spare_prefix = std::move(prefix_);
}

namespace {

// Windows this short are settled by testing every end in them.
constexpr int kCountedWindow = 32;

// lo plus the number of ends in (lo, hi] that fit: the ends that fit are a prefix of the window,
// so this is the largest that fits. The tests do not depend on one another, unlike the chain of
// comparisons of a bisection, so they overlap in the pipeline.
template <class Fits>
int count_fitting(int lo, int hi, Fits fits) {
  int n = 0;
  for (int end = lo + 1; end <= hi; ++end) n += fits(end) ? 1 : 0;
  return lo + n;
}

// The largest end in [lo, hi] that fits, given that lo fits. The first guess is where the prefix
// sums, taken as linear between lo and hi, reach `target`; from it the search gallops in
// doubling steps, which touches a few cache lines of the prefix sums where a bisection of a wide
// window touches many, then bisects down to a counted window.
template <class Fits>
int largest_fitting(const double* prefix, double target, int lo, int hi, Fits fits) {
  if (hi - lo > kCountedWindow) {
    const double span = prefix[hi] - prefix[lo];
    const double at = span > 0 ? (target - prefix[lo]) / span * (hi - lo) : hi - lo;
    const int guess = lo + static_cast<int>(at > 0 ? std::min(at, double(hi - lo)) : 0.0);
    if (fits(guess)) {
      lo = guess;
      for (int step = 8; hi - lo > kCountedWindow; step *= 2) {
        const int next = std::min(hi, lo + step);
        if (!fits(next)) {
          hi = next - 1;
          break;
        }
        lo = next;
      }
    } else {
      hi = guess - 1;
      for (int step = 8; hi - lo > kCountedWindow; step *= 2) {
        const int next = std::max(lo, hi - step);
        if (fits(next)) {
          lo = next;
          break;
        }
        hi = next - 1;
      }
    }
    while (hi - lo > kCountedWindow) {
      const int mid = lo + (hi - lo + 1) / 2;
      if (fits(mid))
        lo = mid;
      else
        hi = mid - 1;
    }
  }
  return count_fitting(lo, hi, fits);
}

}  // namespace

int ChainLoads::reach(int begin, int processor, double bound, int lo, int hi) const {
  const double* prefix = prefix_.data();
  const double base = prefix[begin];
  const double speed = speed_[processor];
  const double target = base + bound * speed;
  // x / 1 == x exactly: unit speeds skip the division and still compare load()'s value.
  if (speed == 1.0)
    return largest_fitting(prefix, target, lo, hi,
                           [=](int end) { return prefix[end] - base <= bound; });
  return largest_fitting(prefix, target, lo, hi,
                         [=](int end) { return (prefix[end] - base) / speed <= bound; });
}

double ChainLoads::bottleneck(std::span<const int> first) const {
  double worst = 0;
  for (int k = 0; k + 1 < static_cast<int>(first.size()); ++k)
    worst = std::max(worst, load(first[k], first[k + 1], k));
  return worst;
}

double ChainLoads::next_bound(std::span<const int> first) const {
  double least = std::numeric_limits<double>::infinity();
  for (int k = 0; k + 1 < static_cast<int>(first.size()); ++k)
    least = std::min(least, load(first[k], first[k + 1] + 1, k));
  return least;
}

bool probe_chain(const ChainLoads& loads, double bound, std::vector<int>& first) {
  const int m = loads.modules();
  first.assign(loads.processors() + 1, m);
  first[0] = 0;
  int end = 0;
  for (int k = 0; k < loads.processors(); ++k) {
    const int begin = end;
    while (end < m && loads.load(begin, end + 1, k) <= bound) ++end;
    first[k + 1] = end;
  }
  return end == m;
}

bool probe_chain_within(const ChainLoads& loads, double bound, std::span<const int> below,
                        std::span<const int> above, std::vector<int>& first) {
  const int m = loads.modules();
  const int p = loads.processors();
  first.assign(p + 1, m);
  first[0] = 0;
  // The windows are known before the reaches that search them, so their prefix sums are
  // fetched a few processors ahead: each reach waits on memory only where its guess was wrong.
  constexpr int kAhead = 8;
  for (int k = 0; k < std::min(p, kAhead); ++k) loads.prefetch(below[k + 1], above[k + 1]);
  for (int k = 0; k < p; ++k) {
    if (k + kAhead < p) loads.prefetch(below[k + kAhead + 1], above[k + kAhead + 1]);
    const int begin = first[k];
    const int end = loads.reach(begin, k, bound, std::max(begin, below[k + 1]), above[k + 1]);
    first[k + 1] = end;
    if (end == m) return true;  // the rest stay empty
  }
  return false;
}

}  // namespace lbb
