#pragma once
// The predictive dynamic method (Iqbal, Saltz & Bokhari 1986, section 6): every processor keeps
// the DEPEND graph of its modules and from it its potential work, the time it could spend
// advancing its modules with the boundary data at hand (eq. 3). When a processor's potential work
// falls below a threshold it takes a module from the neighbouring processor with the largest
// potential work, if that is at least the threshold plus a safety factor.
//
// Driven by an asynchronous executor: start() once, module_advanced() each time a module finishes
// a step (its owner's DEPEND graph and those holding it as a boundary vertex are updated
// incrementally), consider() when a processor looks for work, apply() for a take it carries out
// (the DEPEND graphs that change are rebuilt from scratch, as the paper prescribes). Not safe to
// call concurrently: the caller serialises.
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "balancers/async/depend_graph.h"
#include "balancers/balancer.h"
#include "core/module_graph.h"

namespace lbb {

struct ModuleTake {
  int module = -1;
  int from = -1;  // the neighbouring processor that gives it
  int to = -1;    // the processor whose potential work fell below the threshold
};

class Predictive final : public Balancer {
 public:
  static BalancerInfo info();
  // threshold and safety_factor are in mean module step costs (the paper's weights have mean 1).
  Predictive(double threshold, double safety_factor);
  explicit Predictive(const Params& params);

  // At a step barrier every module has finished view.step + 1 steps: the take rule applied once
  // per processor, in processor order, on a chain (other structures: no action).
  Decision decide(const LoadView& view) override;

  // `step`: steps each module has finished (empty: none); `cost`: t_i per module.
  void start(const ModuleGraph& graph, std::span<const int> owner, std::span<const double> cost,
             const Topology& topology, int final_step, std::span<const int> step = {});
  void module_advanced(int module);
  // The take rule for `processor`; `movable(m)` says whether module m may move now.
  std::optional<ModuleTake> consider(int processor, const std::function<bool(int)>& movable) const;
  void apply(const ModuleTake& take);

  double potential_work(int processor) const { return depend_[processor].potential_work(); }
  const DependGraph& depend(int processor) const { return depend_[processor]; }
  const std::vector<int>& owner() const { return owner_; }
  int step(int module) const { return step_[module]; }
  double threshold() const { return threshold_ * unit_; }
  double taker_floor() const { return (threshold_ + safety_factor_) * unit_; }

 private:
  std::optional<int> module_to_give(int from, int to,
                                    const std::function<bool(int)>& movable) const;
  void rebuild(int processor);
  double threshold_;
  double safety_factor_;
  const ModuleGraph* graph_ = nullptr;
  const Topology* topology_ = nullptr;
  ModuleGraph own_graph_;  // decide()'s chain
  std::vector<int> owner_;
  std::vector<int> count_;  // modules per processor
  std::vector<int> step_;
  std::vector<double> cost_;
  std::vector<DependGraph> depend_;
  int final_step_ = 0;
  double unit_ = 1;  // mean module step cost
};

}  // namespace lbb
