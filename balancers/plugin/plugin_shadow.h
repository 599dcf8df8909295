#pragma once
// A built-in between-step balancer decided beside a user's balancer (C plugin or Python
// script) on every same view, to count the decisions whose owners differ: how a port of a
// built-in proves itself in a real run (the config's `shadow: NAME`).
#include <memory>
#include <string>
#include <vector>

#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

class PluginShadow {
 public:
  // "" for none; throws ParamError("shadow") for a name that is not a built-in between-step
  // balancer.
  explicit PluginShadow(const std::string& name);
  // Decides on `view` and compares with `mine`, the user's decision from `before`.
  void compare(const LoadView& view, const Decision& mine, const Owners& before);
  // plugin_shadow_decisions and plugin_shadow_differ; none without a shadow.
  std::vector<BalancerFigure> figures() const;

 private:
  std::unique_ptr<Balancer> shadow_;
  int compared_ = 0, differ_ = 0;
};

}  // namespace lbb
