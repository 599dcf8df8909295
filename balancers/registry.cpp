// The single table of balancers: adding one is one file plus one line here.
#include <stdexcept>

#include "balancers/async/predictive.h"
#include "balancers/balancer.h"
#include "balancers/dynamic/complete_redistribution.h"
#include "balancers/dynamic/decreasing_fit.h"
#include "balancers/dynamic/horton_diffusion.h"
#include "balancers/dynamic/list_scheduling.h"
#include "balancers/dynamic/local_average_diffusion.h"
#include "balancers/dynamic/multilevel_diffusion.h"
#include "balancers/dynamic/no_balance.h"
#include "balancers/dynamic/profiled_redistribution.h"
#include "balancers/dynamic/random_neighbour.h"
#include "balancers/dynamic/tree_mesh.h"
#include "balancers/static/binary_dissection.h"
#include "balancers/static/block_partition.h"
#include "balancers/static/cyclic_partition.h"
#include "balancers/static/greedy_probe.h"
#include "balancers/static/lpt_partition.h"
#include "balancers/static/optimal_chain.h"
#include "balancers/static/optimal_chain_bokhari.h"
#include "balancers/static/orb_partition.h"

namespace lbb {

std::span<const BalancerInfo> balancer_registry() {
  static const std::vector<BalancerInfo> all = {
      BlockPartition::info(),
      CyclicPartition::info(),
      OptimalChainBokhari::info(),
      OptimalChain::info(),
      BinaryDissection::info(),
      GreedyProbe::info(),
      LptPartition::info(),
      OrbPartition::info(),
      NoBalance::info(),
      RandomNeighbour::info(),
      LocalAverageDiffusion::info(),
      CompleteRedistribution::info(),
      HortonDiffusion::info(),
      MultilevelDiffusion::info(),
      ProfiledRedistribution::info(ProfiledScheme::kGCDLB),
      ProfiledRedistribution::info(ProfiledScheme::kGDDLB),
      ProfiledRedistribution::info(ProfiledScheme::kLCDLB),
      ProfiledRedistribution::info(ProfiledScheme::kLDDLB),
      TreeMesh::info(),
      ListScheduling::info(),
      DecreasingFit::info(),
      Predictive::info(),
  };
  return all;
}

const BalancerInfo* find_balancer(std::string_view name) {
  for (const auto& info : balancer_registry())
    if (info.name == name) return &info;
  return nullptr;
}

std::unique_ptr<Balancer> make_balancer(std::string_view name, const Params& given) {
  const BalancerInfo* info = find_balancer(name);
  if (!info) throw std::invalid_argument("unknown balancer '" + std::string(name) + "'");
  return info->make(resolve_params(info->params, given));
}

}  // namespace lbb
