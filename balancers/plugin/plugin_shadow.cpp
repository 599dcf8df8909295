#include "balancers/plugin/plugin_shadow.h"

namespace lbb {

PluginShadow::PluginShadow(const std::string& name) {
  if (name.empty()) return;
  const BalancerInfo* info = find_balancer(name);
  if (!info || info->role != BalancerRole::kBetweenSteps || info->name == "plugin" ||
      info->name == "python")
    throw ParamError("shadow", "shadow '" + name + "' is not a built-in between-step balancer");
  shadow_ = make_balancer(name, {});
}

void PluginShadow::compare(const LoadView& view, const Decision& mine, const Owners& before) {
  if (!shadow_) return;
  const Decision s = shadow_->decide(view);
  const Owners& a = mine.act ? mine.owner : before;
  const Owners& b = s.act ? s.owner : before;
  ++compared_;
  differ_ += a != b;
}

std::vector<BalancerFigure> PluginShadow::figures() const {
  if (!shadow_) return {};
  return {{"plugin_shadow_decisions", static_cast<double>(compared_)},
          {"plugin_shadow_differ", static_cast<double>(differ_)}};
}

}  // namespace lbb
