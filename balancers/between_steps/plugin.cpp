#include "balancers/between_steps/plugin.h"

#include <stdexcept>

#include "balancers/between_steps/parts/reassignment.h"
#include "balancers/plugin/plugin_output.h"

namespace lbb {

std::vector<std::pair<std::string, std::string>> parse_plugin_params(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find(';', at), text.size());
    const std::string part = text.substr(at, end - at);
    const std::size_t eq = part.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ParamError("params", "plugin params '" + text + "': '" + part + "' is not key=value");
    out.emplace_back(part.substr(0, eq), part.substr(eq + 1));
    at = end + 1;
  }
  return out;
}

ParamSpec user_min_gain_param() {
  return real_param("min_gain", 0.0,
                    "take the returned owners only when the predicted makespan falls by more "
                    "than this fraction (the built-ins' guard; their default is 0.05)",
                    0.0, 1.0);
}

PluginBalancer::PluginBalancer(const std::string& library, const std::string& params,
                               const std::string& shadow, double min_gain)
    : min_gain_(min_gain), shadow_(shadow) {
  try {
    library_ = std::make_unique<PluginLibrary>(library);
  } catch (const std::invalid_argument& e) {
    throw ParamError("library", e.what());
  }
  const auto pairs = parse_plugin_params(params);
  const lbb_plugin& p = library_->plugin();
  if (!p.init) {
    if (!pairs.empty())
      throw ParamError("params", "plugin " + library_->label() + " takes no params (no init)");
    return;
  }
  std::vector<lbb_plugin_param> given;
  for (const auto& [k, v] : pairs) given.push_back({k.c_str(), v.c_str()});
  char error[512] = "";
  if (p.init(given.data(), static_cast<int>(given.size()), &state_, error, sizeof error) != 0) {
    error[sizeof error - 1] = '\0';
    throw ParamError("params", "plugin " + library_->label() + " refused its params: " +
                                   (error[0] ? error : "init failed, no message"));
  }
}

PluginBalancer::~PluginBalancer() {
  if (library_ && library_->plugin().finish) library_->plugin().finish(state_);
}

BalancerInfo PluginBalancer::info() {
  return {"plugin",
          BalancerRole::kBetweenSteps,
          "your own balancer: a shared library written against include/lbbench/"
          "balancer_plugin.h (docs/your-balancer.md), decided on one processor (on every rank "
          "where it declares LBB_PLUGIN_ON_EVERY_RANK)",
          {required(string_param("library", "", "the plugin's shared library (.so)")),
           string_param("params", "",
                        "the plugin's own parameters, given to its init (in a config a map, "
                        "params: { key: value }; as text key=value;key=value)"),
           string_param("shadow", "",
                        "a built-in between-step balancer (default parameters) decided beside "
                        "the plugin on every view, to count decisions whose owners differ "
                        "(checking a port; its time counts as balance time)"),
           user_min_gain_param()},
          [](const Params& p) {
            return std::make_unique<PluginBalancer>(p.text("library"), p.text("params"),
                                                    p.text("shadow"), p.real("min_gain"));
          }};
}

std::string PluginBalancer::where(const LoadView& view) const {
  return "plugin " + library_->label() + ", step " + std::to_string(view.step) + ", phase " +
         std::to_string(view.phase) + ": ";
}

Decision PluginBalancer::decide(const LoadView& view) {
  const Owners before = starting_owners(view);
  Decision d = plugin_decision(view, before);
  shadow_.compare(view, d, before);
  return d;
}

std::vector<BalancerFigure> PluginBalancer::figures() const {
  return shadow_.figures();
}

Decision PluginBalancer::plugin_decision(const LoadView& view, const Owners& before) {
  std::vector<int> written = owner_buffer(before);
  const lbb_plugin_view c = views_.build(view, before);
  char error[512] = "";
  const int rc = library_->plugin().decide(state_, &c, written.data(), error, sizeof error);
  error[sizeof error - 1] = '\0';
  if (rc < 0)
    throw std::runtime_error(where(view) + "returned error code " + std::to_string(rc) +
                             (error[0] ? std::string(": ") + error : std::string()));
  if (rc == LBB_PLUGIN_KEEP) return {};
  if (rc != LBB_PLUGIN_MOVE)
    throw std::runtime_error(where(view) + "returned " + std::to_string(rc) +
                             ", neither LBB_PLUGIN_MOVE (0), LBB_PLUGIN_KEEP (1) nor an error");
  if (auto problem = owner_problem(written, before, view.processors(), view.migratable))
    throw std::runtime_error(where(view) + *problem);
  written.resize(before.size());
  return reassignment(view, before, std::move(written), min_gain_);
}

}  // namespace lbb
