#pragma once
#include <vector>

#include "balancers/balancer.h"

namespace lbb {

// vt's OfflineLB idea: a mapping computed elsewhere, module m on processor owners[m], so that a
// mapping from another tool is measured on the real kernels. It is handed the owners as a
// parameter (a config's `assignment: FILE` is read by the harness, harness/formats/).
class PrescribedPartition final : public Balancer {
 public:
  explicit PrescribedPartition(std::vector<double> owners) : owners_(std::move(owners)) {}
  static BalancerInfo info();
  // Throws std::invalid_argument when the owners do not fit the view's modules and processors.
  Decision decide(const LoadView& view) override;

 private:
  std::vector<double> owners_;
};

}  // namespace lbb
