#pragma once
// `dynamic: python`: a between-step balancer of the user's own written in Python
// (docs/your-balancer.md): FUNCTION(view, params) of a script, run in the interpreter lbbench
// embeds (balancers/python/). Decided where `dynamic: plugin` decides, its answer checked by the
// same checks (balancers/plugin/plugin_output.h) before anything moves.
#include <memory>
#include <string>

#include "balancers/balancer.h"
#include "balancers/plugin/plugin_shadow.h"
#include "balancers/plugin/plugin_view.h"
#include "balancers/python/python_script.h"
#include "core/assignment.h"

namespace lbb {

class PythonBalancer final : public Balancer {
 public:
  // Imports the script (once: a run's balancer is made once); throws ParamError naming
  // `script` (no such file, a syntax error with its line, an exception at import) or `function`.
  // min_gain: user_min_gain_param() (plugin.h).
  PythonBalancer(const std::string& script, const std::string& function, const std::string& params,
                 const std::string& shadow = "", double min_gain = 0);
  static BalancerInfo info();
  // Throws std::runtime_error naming the script, the function, the step and the problem: the
  // exception's text, or owners that fail plugin_output.h's checks.
  Decision decide(const LoadView& view) override;
  // As a plugin's (plugin.h): the function's decides_on = "every_rank" decides on every rank.
  DecisionScope scope() const override {
    return script_->every_rank() ? DecisionScope::kAll : DecisionScope::kLeader;
  }
  std::vector<BalancerFigure> figures() const override { return shadow_.figures(); }

  // The decision on `view` from `before` (also the initial partition's, `static: python`).
  Decision script_decision(const LoadView& view, const Owners& before);

 private:
  std::string where(const LoadView& view) const;

  std::unique_ptr<PythonScript> script_;
  double min_gain_;
  PluginViewBuilder views_;
  PluginShadow shadow_;
};

// The script's ParamError for `lbbench validate`: PythonLoadError's key and message.
std::unique_ptr<PythonScript> load_python_script(const std::string& script,
                                                 const std::string& function,
                                                 const std::string& params);

}  // namespace lbb
