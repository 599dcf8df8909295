#pragma once
// `dynamic: plugin`: a between-step balancer of the user's own, a shared library written against
// include/lbbench/balancer_plugin.h (docs/your-balancer.md). One processor calls the plugin and
// the engine hands its owners to the others; under mpirun rank 0's, or every rank's own where
// the plugin declares LBB_PLUGIN_ON_EVERY_RANK (scope kAll, yet never redundant(): within a
// process one thread decides, so a plugin needs no locks).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "balancers/balancer.h"
#include "balancers/plugin/plugin_library.h"
#include "balancers/plugin/plugin_shadow.h"
#include "balancers/plugin/plugin_view.h"
#include "core/assignment.h"

namespace lbb {

// "k1=v1;k2=v2" (the config's params map as the entry's `params` text) as pairs, in order.
// Throws ParamError("params") for a part without '='.
std::vector<std::pair<std::string, std::string>> parse_plugin_params(const std::string& text);

// A user balancer's min_gain: reassignment.h's guard, as the built-ins' but off by default (0),
// so that what the plugin or script returns is what moves unless the entry asks for the guard.
ParamSpec user_min_gain_param();

class PluginBalancer final : public Balancer {
 public:
  // Loads the library and calls its init with the params; throws ParamError naming `library`
  // or `params`, which `lbbench validate` reports at that key.
  // shadow: a built-in between-step balancer decided on every same view beside the plugin, its
  // owners compared with the plugin's (figures()); "" for none. min_gain: user_min_gain_param().
  PluginBalancer(const std::string& library, const std::string& params,
                 const std::string& shadow = "", double min_gain = 0);
  ~PluginBalancer() override;
  static BalancerInfo info();
  // Throws std::runtime_error naming the plugin, the step and the problem: an error code, an
  // unknown code, or owners that fail plugin_output.h's checks.
  Decision decide(const LoadView& view) override;
  DecisionScope scope() const override {
    return library_->every_rank() ? DecisionScope::kAll : DecisionScope::kLeader;
  }
  // With a shadow: plugin_shadow_decisions, the decisions compared, and plugin_shadow_differ,
  // those whose owners differed from the shadow's.
  std::vector<BalancerFigure> figures() const override;

 private:
  std::string where(const LoadView& view) const;
  Decision plugin_decision(const LoadView& view, const Owners& before);

  std::unique_ptr<PluginLibrary> library_;
  void* state_ = nullptr;
  double min_gain_;
  PluginViewBuilder views_;
  PluginShadow shadow_;
};

}  // namespace lbb
