#include "balancers/between_steps/python.h"

#include <stdexcept>

#include "balancers/between_steps/parts/reassignment.h"
#include "balancers/between_steps/plugin.h"
#include "balancers/plugin/plugin_output.h"

namespace lbb {

std::unique_ptr<PythonScript> load_python_script(const std::string& script,
                                                 const std::string& function,
                                                 const std::string& params) {
  try {
    return std::make_unique<PythonScript>(script, function, parse_plugin_params(params));
  } catch (const PythonLoadError& e) {
    throw ParamError(e.key, e.what());
  } catch (const std::runtime_error& e) {  // the interpreter did not start
    throw ParamError("script", e.what());
  }
}

PythonBalancer::PythonBalancer(const std::string& script, const std::string& function,
                               const std::string& params, const std::string& shadow,
                               double min_gain)
    : min_gain_(min_gain), shadow_(shadow) {
  script_ = load_python_script(script, function, params);
}

BalancerInfo PythonBalancer::info() {
  return {"python",
          BalancerRole::kBetweenSteps,
          "your own balancer in Python: FUNCTION(view, params) of a script, the view as NumPy "
          "arrays (docs/your-balancer.md), decided on one processor (on every rank where "
          "its decides_on says every_rank)",
          {required(string_param("script", "", "the Python script (.py)")),
           string_param("function", "balance",
                        "the script's function, called as FUNCTION(view, params) at every "
                        "decision"),
           string_param("params", "",
                        "the script's own parameters, a dict of str to str (in a config a map, "
                        "params: { key: value }; as text key=value;key=value)"),
           string_param("shadow", "",
                        "a built-in between-step balancer (default parameters) decided beside "
                        "the script on every view, to count decisions whose owners differ"),
           user_min_gain_param()},
          [](const Params& p) {
            return std::make_unique<PythonBalancer>(p.text("script"), p.text("function"),
                                                    p.text("params"), p.text("shadow"),
                                                    p.real("min_gain"));
          }};
}

std::string PythonBalancer::where(const LoadView& view) const {
  return "python " + script_->label() + ", step " + std::to_string(view.step) + ", phase " +
         std::to_string(view.phase) + ": ";
}

Decision PythonBalancer::decide(const LoadView& view) {
  const Owners before = starting_owners(view);
  Decision d = script_decision(view, before);
  shadow_.compare(view, d, before);
  return d;
}

Decision PythonBalancer::script_decision(const LoadView& view, const Owners& before) {
  const lbb_plugin_view c = views_.build(view, before);
  std::optional<std::vector<std::int64_t>> answer;
  try {
    answer = script_->call(c);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(where(view) + e.what());
  }
  if (!answer) return {};
  std::vector<int> owners;
  auto problem = wide_owner_problem(*answer, before.size(), view.processors(), owners);
  if (!problem) problem = owner_problem(owners, before, view.processors(), view.migratable);
  if (problem) throw std::runtime_error(where(view) + *problem);
  owners.resize(before.size());
  return reassignment(view, before, std::move(owners), min_gain_);
}

}  // namespace lbb
