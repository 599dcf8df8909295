#include "harness/config/resolved_yaml.h"

#include <yaml-cpp/yaml.h>

#include "harness/config/config_keys.h"

namespace lbb {

namespace {

// An empty list means "not given" (speeds: all 1), so it is left out.
void emit_value(YAML::Emitter& out, const std::string& key, const ParamValue& value) {
  if (const auto* list = std::get_if<std::vector<double>>(&value)) {
    if (list->empty()) return;
    out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (double d : *list) out << d;
    out << YAML::EndSeq;
    return;
  }
  out << YAML::Key << key << YAML::Value;
  std::visit([&](const auto& x) { out << x; }, value);
}

// Workload and balancer parameters in name order (as every result set so far has them).
void emit_params(YAML::Emitter& out, const Params& params) {
  for (const auto& [key, value] : params.values()) emit_value(out, key, value);
}

// A section of config_keys.h, in its table's order.
void emit_section(YAML::Emitter& out, const char* name, std::span<const ParamSpec> specs,
                  const Params& params) {
  out << YAML::Key << name << YAML::Value << YAML::BeginMap;
  for (const auto& spec : specs) emit_value(out, spec.name, params.values().at(spec.name));
  out << YAML::EndMap;
}

void emit_balancer(YAML::Emitter& out, const BalancerChoice& b) {
  out << YAML::Key << "balancers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  const std::pair<const char*, std::pair<const std::string*, const Params*>> roles[] = {
      {"static", {&b.static_name, &b.static_params}},
      {"dynamic", {&b.dynamic_name, &b.dynamic_params}},
      {"schedule", {&b.schedule_name, &b.schedule_params}}};
  for (const auto& [role, choice] : roles) {
    if (choice.first->empty()) continue;
    out << YAML::Key << role << YAML::Value << *choice.first;
    emit_params(out, *choice.second);
  }
  // An option at its default is left out, so every set written before the options keeps its
  // runs' resolved configs (what `run --resume` matches).
  for (const ParamSpec& spec : balancer_option_specs())
    if (const auto it = b.options.values().find(spec.name);
        it != b.options.values().end() && it->second != *spec.default_value)
      emit_value(out, spec.name, it->second);
  out << YAML::Key << "label" << YAML::Value << b.label;
  if (b.baseline) out << YAML::Key << "baseline" << YAML::Value << true;
  out << YAML::EndMap << YAML::EndSeq;
}

}  // namespace

std::string resolved_yaml(const RunSpec& run, const std::string& output) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << run.name;
  out << YAML::Key << "workload" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "kind" << YAML::Value << run.workload;
  emit_params(out, run.workload_params);
  out << YAML::EndMap;
  emit_section(out, "platform", platform_specs(), run.platform_params);
  emit_section(out, "execution", execution_specs(), run.execution_params);
  emit_balancer(out, run.balancer);
  out << YAML::Key << "output" << YAML::Value << output;
  out << YAML::EndMap;
  return out.c_str();
}

}  // namespace lbb
