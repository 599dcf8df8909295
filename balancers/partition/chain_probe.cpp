#include "balancers/partition/chain_probe.h"

#include <algorithm>
#include <limits>

#include "balancers/partition/partition_input.h"

namespace lbb {

Owners chain_owners(const ChainPartition& partition) {
  Owners owner(partition.first.back());
  for (int k = 0; k < partition.processors(); ++k)
    std::fill(owner.begin() + partition.first[k], owner.begin() + partition.first[k + 1], k);
  return owner;
}

ChainLoads::ChainLoads(std::span<const double> weights, std::span<const double> speeds)
    : prefix_(weights.size() + 1, 0.0), speed_(speeds.begin(), speeds.end()) {
  check_partition_input(weights, speeds);
  for (std::size_t i = 0; i < weights.size(); ++i) {
    prefix_[i + 1] = prefix_[i] + weights[i];
    max_weight_ = std::max(max_weight_, weights[i]);
  }
  for (int k = 0; k < processors(); ++k) {
    total_speed_ += speed_[k];
    if (speed_[k] > speed_[fastest_]) fastest_ = k;
  }
}

int ChainLoads::reach(int begin, int processor, double bound, int lo, int hi) const {
  // Invariant: load(begin, lo) <= bound; the answer is in [lo, hi].
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (load(begin, mid, processor) <= bound)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
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
  for (int k = 0; k < p; ++k) {
    const int begin = first[k];
    const int end = loads.reach(begin, k, bound, std::max(begin, below[k + 1]), above[k + 1]);
    first[k + 1] = end;
    if (end == m) return true;  // the rest stay empty
  }
  return false;
}

}  // namespace lbb
