#include "balancers/partition/block.h"

namespace lbb {

BalancerInfo BlockPartition::info() {
  BalancerInfo info{
      "block",
      BalancerRole::kPartition,
      "equal contiguous module counts per processor (static block scheme, Zaki et al. 1997)",
      {},
      [](const Params&) { return std::make_unique<BlockPartition>(); }};
  info.capabilities.contiguous = true;
  return info;
}

std::vector<int> block_owners(int modules, int processors) {
  std::vector<int> owner(modules);
  for (int p = 0; p < processors; ++p) {
    const long long first = static_cast<long long>(p) * modules / processors;
    const long long last = static_cast<long long>(p + 1) * modules / processors;
    for (long long m = first; m < last; ++m) owner[m] = p;
  }
  return owner;
}

Decision BlockPartition::decide(const LoadView& view) {
  return {true, block_owners(view.modules(), view.processors()), 1};
}

}  // namespace lbb
