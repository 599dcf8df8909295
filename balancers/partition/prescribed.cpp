#include "balancers/partition/prescribed.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace lbb {

BalancerInfo PrescribedPartition::info() {
  return {"prescribed",
          BalancerRole::kPartition,
          "a mapping computed elsewhere (vt's OfflineLB idea): module m on processor owners[m]; "
          "config: assignment: FILE (a vt LBDatafile set's first phase, or owners one per line)",
          {required(reals_param("owners", {}, "processor of each module, in module order", 0))},
          [](const Params& p) { return std::make_unique<PrescribedPartition>(p.reals("owners")); }};
}

Decision PrescribedPartition::decide(const LoadView& view) {
  if (static_cast<int>(owners_.size()) != view.modules())
    throw std::invalid_argument("prescribed: the assignment has " + std::to_string(owners_.size()) +
                                " owners for " + std::to_string(view.modules()) + " modules");
  std::vector<int> owner(owners_.size());
  for (std::size_t m = 0; m < owners_.size(); ++m) {
    const double q = owners_[m];
    if (!(q >= 0 && q < view.processors() && q == std::floor(q)))
      throw std::invalid_argument("prescribed: module " + std::to_string(m) + "'s owner " +
                                  std::to_string(q) + " is not a processor of 0 to " +
                                  std::to_string(view.processors() - 1));
    owner[m] = static_cast<int>(q);
  }
  return {true, std::move(owner), 1};
}

}  // namespace lbb
