// The single table of balancers: adding one is one file plus one line here.
#include <stdexcept>

#include "balancers/async/predictive.h"
#include "balancers/balancer.h"
#include "balancers/between_steps/diffusion.h"
#include "balancers/between_steps/diffusion_horton.h"
#include "balancers/between_steps/gossip.h"
#include "balancers/between_steps/greedy.h"
#include "balancers/between_steps/greedy_refine.h"
#include "balancers/between_steps/hierarchical.h"
#include "balancers/between_steps/metis.h"
#include "balancers/between_steps/multilevel.h"
#include "balancers/between_steps/none.h"
#include "balancers/between_steps/plugin.h"
#include "balancers/between_steps/python.h"
#include "balancers/between_steps/random.h"
#include "balancers/between_steps/redistribution.h"
#include "balancers/between_steps/refine.h"
#include "balancers/between_steps/scotch.h"
#include "balancers/choice/auto.h"
#include "balancers/in_step/profiled_redistribution.h"
#include "balancers/level/decreasing_fit.h"
#include "balancers/level/list_scheduling.h"
#include "balancers/level/max_gain_fit.h"
#include "balancers/level/tree_mesh.h"
#include "balancers/partition/binary_dissection.h"
#include "balancers/partition/block.h"
#include "balancers/partition/cyclic.h"
#include "balancers/partition/greedy_probe.h"
#include "balancers/partition/hsfc.h"
#include "balancers/partition/lpt.h"
#include "balancers/partition/mj.h"
#include "balancers/partition/optimal_chain.h"
#include "balancers/partition/optimal_chain_bokhari.h"
#include "balancers/partition/orb.h"
#include "balancers/partition/plugin.h"
#include "balancers/partition/prescribed.h"
#include "balancers/partition/python.h"
#include "balancers/partition/rib.h"
#include "balancers/partition/scotch.h"

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
      RibPartition::info(),
      MjPartition::info(),
      HsfcPartition::info(),
      ScotchPartition::info(),
      PrescribedPartition::info(),
      plugin_partition_info(),
      python_partition_info(),
      NoBalance::info(),
      RandomNeighbour::info(),
      LocalAverageDiffusion::info(),
      CompleteRedistribution::info(),
      HortonDiffusion::info(),
      MultilevelDiffusion::info(),
      GreedyBalancer::info(),
      PluginBalancer::info(),
      PythonBalancer::info(),
      GreedyRefineBalancer::info(),
      RefineBalancer::info(),
      metis_balancer_info(),
      scotch_balancer_info(),
      GossipBalancer::info(),
      HierarchicalBalancer::info(),
      gcdlb_info(),
      gddlb_info(),
      lcdlb_info(),
      lddlb_info(),
      TreeMesh::info(),
      ListScheduling::info(),
      DecreasingFit::info(),
      MaxGainFit::info(),
      Predictive::info(),
      customized_choice_info(),
  };
  return all;
}

std::string_view role_name(BalancerRole role) {
  switch (role) {
    case BalancerRole::kPartition:
      return "partition";
    case BalancerRole::kBetweenSteps:
      return "between steps";
    case BalancerRole::kInStep:
      return "in step";
    case BalancerRole::kLevel:
      return "level";
    case BalancerRole::kAsync:
      return "async";
    case BalancerRole::kChoice:
      return "choice";
  }
  return "?";
}

std::string_view scope_name(DecisionScope scope) {
  switch (scope) {
    case DecisionScope::kLeader:
      return "leader";
    case DecisionScope::kAll:
      return "all";
    case DecisionScope::kNeighbours:
      return "neighbours";
    case DecisionScope::kOwnAndTotal:
      return "own and total";
    case DecisionScope::kGroup:
      return "group";
    case DecisionScope::kTree:
      return "tree";
  }
  return "?";
}

const BalancerInfo* find_balancer(std::string_view name) {
  const BalancerInfo* found = nullptr;  // a partitioner, unless a dynamic one has the name too
  for (const auto& info : balancer_registry())
    if (info.name == name && info.kind() == BalancerKind::kDynamic)
      return &info;
    else if (info.name == name && !found)
      found = &info;
  return found;
}

const BalancerInfo* find_balancer(std::string_view name, BalancerKind kind) {
  for (const auto& info : balancer_registry())
    if (info.name == name && info.kind() == kind) return &info;
  return nullptr;
}

std::unique_ptr<Balancer> make_balancer(std::string_view name, const Params& given) {
  const BalancerInfo* info = find_balancer(name);
  if (!info) throw std::invalid_argument("unknown balancer '" + std::string(name) + "'");
  return info->make(resolve_params(info->params, given));
}

std::unique_ptr<Balancer> make_balancer(std::string_view name, BalancerKind kind,
                                        const Params& given) {
  const BalancerInfo* info = find_balancer(name, kind);
  if (!info) throw std::invalid_argument("unknown balancer '" + std::string(name) + "'");
  return info->make(resolve_params(info->params, given));
}

}  // namespace lbb
