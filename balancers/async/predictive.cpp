#include "balancers/async/predictive.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "balancers/partition/block.h"

namespace lbb {

BalancerInfo Predictive::info() {
  return {
      "predictive",
      BalancerRole::kAsync,
      "a processor whose potential work (DEPEND graph, eq. 3-4) falls below the threshold takes "
      "a module from the neighbour with the most, if that is >= threshold + safety factor "
      "(Iqbal, Saltz & Bokhari 1986, section 6); drives the async executor",
      {
          real_param("threshold", 1.0,
                     "potential work below which a processor takes a module, "
                     "in mean module step costs",
                     0, 1e9),
          real_param("safety_factor", 1.0,
                     "a neighbour gives only when its potential work is "
                     ">= threshold + safety_factor (mean module step costs)",
                     0, 1e9),
      },
      [](const Params& p) { return std::make_unique<Predictive>(p); },
  };
}

Predictive::Predictive(double threshold, double safety_factor)
    : threshold_(threshold), safety_factor_(safety_factor) {}

Predictive::Predictive(const Params& params)
    : Predictive(params.real("threshold"), params.real("safety_factor")) {}

Decision Predictive::decide(const LoadView& view) {
  // Given no assignment, start from block, as every dynamic balancer does.
  const bool initial = view.owner.empty();
  const std::vector<int> owner = initial ? block_owners(view.modules(), view.processors())
                                         : std::vector<int>(view.owner.begin(), view.owner.end());
  Decision d{initial, owner, 0};
  if (view.structure != ModuleStructure::kChain || !view.topology) return d;
  const int n = view.modules();
  own_graph_ = ModuleGraph::chain(n);
  const std::vector<int> done(n, view.step + 1);
  start(own_graph_, owner, view.cost, *view.topology, view.step + 1 + n, done);
  for (int p = 0; p < view.processors(); ++p)
    if (auto take = consider(p, [](int) { return true; })) {
      apply(*take);
      d.act = true;
    }
  d.owner = owner_;
  return d;
}

void Predictive::start(const ModuleGraph& graph, std::span<const int> owner,
                       std::span<const double> cost, const Topology& topology, int final_step,
                       std::span<const int> step) {
  const int n = graph.modules();
  if (static_cast<int>(owner.size()) != n || static_cast<int>(cost.size()) != n ||
      (!step.empty() && static_cast<int>(step.size()) != n))
    throw std::invalid_argument("predictive: owner, cost and step need one entry per module");
  graph_ = &graph;
  topology_ = &topology;
  final_step_ = final_step;
  owner_.assign(owner.begin(), owner.end());
  cost_.assign(cost.begin(), cost.end());
  step_ = step.empty() ? std::vector<int>(n, 0) : std::vector<int>(step.begin(), step.end());
  const double total = std::accumulate(cost_.begin(), cost_.end(), 0.0);
  unit_ = n > 0 && total > 0 ? total / n : 1.0;
  count_.assign(topology.size(), 0);
  for (int p : owner_) {
    if (p < 0 || p >= topology.size())
      throw std::invalid_argument("predictive: owner outside the processors");
    ++count_[p];
  }
  depend_.clear();
  for (int p = 0; p < topology.size(); ++p)
    depend_.emplace_back(graph, owner_, p, step_, cost_, final_step_);
}

void Predictive::module_advanced(int module) {
  ++step_[module];
  const int p = owner_[module];
  depend_[p].internal_advanced(module);
  // Every other processor holding the module as a boundary vertex receives the datum, once.
  for (int q = 0; q < static_cast<int>(depend_.size()); ++q)
    if (q != p && depend_[q].borders(module)) depend_[q].boundary_advanced(module);
}

std::optional<ModuleTake> Predictive::consider(int processor,
                                               const std::function<bool(int)>& movable) const {
  if (count_[processor] == 0 || potential_work(processor) >= threshold()) return std::nullopt;
  std::vector<int> givers;
  for (int q : topology_->neighbours(processor))
    if (count_[q] >= 2 && potential_work(q) >= taker_floor()) givers.push_back(q);
  // The neighbour with the largest potential work contributes (the next one when none of its
  // modules linked to this processor may move now).
  std::stable_sort(givers.begin(), givers.end(),
                   [&](int a, int b) { return potential_work(a) > potential_work(b); });
  for (int q : givers)
    if (auto m = module_to_give(q, processor, movable)) return ModuleTake{*m, q, processor};
  return std::nullopt;
}

// Among the giver's modules linked to the taker's: the one with the most links into the taker
// (on a chain there is one), then the most potential work, then the lowest id.
std::optional<int> Predictive::module_to_give(int from, int to,
                                              const std::function<bool(int)>& movable) const {
  std::optional<int> best;
  int best_links = 0;
  double best_potential = 0;
  for (int m : depend_[to].boundary()) {
    if (owner_[m] != from || step_[m] >= final_step_ || !movable(m)) continue;
    int links = 0;
    for (int j : graph_->neighbours(m)) links += owner_[j] == to;
    const double potential = depend_[from].module_potential(m);
    if (!best || links > best_links || (links == best_links && potential > best_potential)) {
      best = m;
      best_links = links;
      best_potential = potential;
    }
  }
  return best;
}

void Predictive::apply(const ModuleTake& take) {
  if (owner_.at(take.module) != take.from || take.to < 0 || take.to >= topology_->size())
    throw std::invalid_argument("predictive: a take that does not match the ownership");
  owner_[take.module] = take.to;
  --count_[take.from];
  ++count_[take.to];
  // Moving a module changes the DEPEND graphs of both processors and of every processor that
  // holds it as a boundary vertex: recomputed from scratch (section 6).
  std::vector<int> touched{take.from, take.to};
  for (int j : graph_->neighbours(take.module)) touched.push_back(owner_[j]);
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (int p : touched) rebuild(p);
}

void Predictive::rebuild(int processor) {
  depend_[processor] = DependGraph(*graph_, owner_, processor, step_, cost_, final_step_);
}

}  // namespace lbb
