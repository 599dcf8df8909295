#include "balancers/between_steps/redistribution.h"

#include <numeric>
#include <stdexcept>

#include "balancers/partition/block.h"
#include "core/assignment.h"

namespace lbb {

BalancerInfo CompleteRedistribution::info() {
  return {"redistribution",
          BalancerRole::kBetweenSteps,
          "complete redistribution: when a processor exceeds threshold x its ideal load, "
          "repartition from scratch with a static partitioner (Franklin & Govindan 1995, 3.3)",
          {real_param("threshold", 1.3,
                      "activation: some w_i > threshold * w-bar_i (Tables 4 and 5: best 1.3)", 1.0),
           string_param("partitioner", "auto",
                        "static partitioner to run; auto: optimal_chain for chains, orb for "
                        "spatial modules, lpt otherwise")},
          [](const Params& p) {
            const std::string& name = p.text("partitioner");
            if (name != "auto") {
              const BalancerInfo* info = find_balancer(name);
              if (!info || info->role != BalancerRole::kPartition)
                throw ParamError("partitioner", "partitioner: '" + name +
                                                    "' is not a registered static partitioner");
            }
            return std::make_unique<CompleteRedistribution>(p.real("threshold"), name);
          }};
}

std::string CompleteRedistribution::partitioner_for(ModuleStructure structure) {
  switch (structure) {
    case ModuleStructure::kChain:
      return "optimal_chain";
    case ModuleStructure::kSpatial:
      return "orb";
    case ModuleStructure::kIndependent:
      return "lpt";
  }
  return "lpt";
}

Decision CompleteRedistribution::decide(const LoadView& view) {
  const int processors = view.processors();
  const bool initial = view.owner.empty();
  const Owners owner = initial ? block_owners(view.modules(), processors)
                               : Owners(view.owner.begin(), view.owner.end());
  // Activation (Figure 3): w_i > threshold * w-bar_i for some i, with w in nominal work.
  std::vector<double> work(processors, 0.0);
  for (std::size_t m = 0; m < owner.size(); ++m) work[owner[m]] += view.cost[m];
  const double total = std::accumulate(work.begin(), work.end(), 0.0);
  const double power = std::accumulate(view.speed.begin(), view.speed.end(), 0.0);
  bool active = false;
  for (int p = 0; p < processors; ++p)
    active = active || work[p] > threshold_ * total * view.speed[p] / power;
  if (!active) return {initial, initial ? owner : Owners{}, 0};

  const std::string name = partitioner_ == "auto" ? partitioner_for(view.structure) : partitioner_;
  if (!made_ || made_name_ != name) {
    const BalancerInfo* info = find_balancer(name);
    if (!info)
      throw std::runtime_error("redistribution: the static partitioner '" + name +
                               "' is not registered (needed for this workload's module structure; "
                               "choose another with partitioner=NAME)");
    made_ = info->make(resolve_params(info->params, Params{}));
    made_name_ = name;
  }
  LoadView scratch = view;  // from scratch: the partitioner sees no current assignment
  scratch.owner = {};
  Decision d = made_->decide(scratch);
  if (auto err = assignment_error(d.owner, view.modules(), processors))
    throw std::runtime_error("redistribution: partitioner '" + name +
                             "' returned a bad assignment: " + *err);
  if (!initial && d.owner == owner) return {};
  return {true, std::move(d.owner), 1};
}

}  // namespace lbb
