#include "balancers/partition/cyclic.h"

namespace lbb {

BalancerInfo CyclicPartition::info() {
  return {
      "cyclic",
      BalancerRole::kPartition,
      "interleaved: module m on processor m mod P (static interleaved scheme, Zaki et al. 1997)",
      {},
      [](const Params&) { return std::make_unique<CyclicPartition>(); }};
}

Decision CyclicPartition::decide(const LoadView& view) {
  const int p = view.processors();
  std::vector<int> owner(view.modules());
  for (int m = 0; m < view.modules(); ++m) owner[m] = m % p;
  return {true, std::move(owner), 1};
}

}  // namespace lbb
