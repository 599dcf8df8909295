#include "harness/config/config_schema.h"

#include <algorithm>

#include "balancers/balancer.h"
#include "harness/base/schedule.h"
#include "harness/config/config_keys.h"
#include "harness/config/config_values.h"
#include "harness/config/expectations.h"
#include "harness/config/names.h"
#include "harness/config/processor_pattern.h"
#include "harness/formats/trace_workload.h"
#include "workloads/workload.h"

namespace lbb {

namespace {

using Json = nlohmann::ordered_json;

Json value_json(const ParamValue& v) {
  return std::visit([](const auto& x) { return Json(x); }, v);
}

void bounds(Json& s, const ParamSpec& spec) {
  if (spec.min) s["minimum"] = *spec.min;
  if (spec.max) s["maximum"] = *spec.max;
}

// One value of the parameter.
Json value_schema(const ParamSpec& spec) {
  Json s;
  switch (spec.type) {
    case ParamType::kInt:
      s["type"] = "integer";
      bounds(s, spec);
      break;
    case ParamType::kReal:
      s["type"] = "number";
      bounds(s, spec);
      break;
    case ParamType::kBool:
      s["type"] = "boolean";
      break;
    case ParamType::kString:
      s["type"] = "string";
      if (!spec.choices.empty()) s["enum"] = spec.choices;
      break;
    case ParamType::kRealList: {
      Json item{{"type", "number"}};
      bounds(item, spec);
      s = Json{{"type", "array"}, {"items", item}};
      break;
    }
  }
  if (per_processor(spec))
    s = Json{{"anyOf", {s, Json{{"type", "string"}, {"pattern", kProcessorPatternRegex}}}}};
  return s;
}

// The parameter: one value, or a sweep (a list of values), with its meaning and default.
Json param_schema(const ParamSpec& spec) {
  const Json one = value_schema(spec);
  Json s{{"description", spec.doc}};
  if (spec.default_value) s["default"] = value_json(*spec.default_value);
  s["anyOf"] = {
      one, Json{{"type", "array"}, {"minItems", 1}, {"maxItems", kMaxSweepValues}, {"items", one}}};
  return s;
}

// {"properties": ..., "required": ...} of a parameter table.
Json params_object(std::span<const ParamSpec> specs, Json properties = Json::object()) {
  Json required = Json::array();
  for (const ParamSpec& spec : specs) {
    properties[spec.name] = param_schema(spec);
    if (!spec.default_value) required.push_back(spec.name);
  }
  Json s{{"properties", properties}};
  if (!required.empty()) s["required"] = required;
  return s;
}

Json section_schema(std::span<const ParamSpec> specs) {
  Json s{{"type", "object"}};
  s.update(params_object(specs));
  s["additionalProperties"] = false;
  return s;
}

// "if the entry's `role` is `name`, then these parameters": each alternative's own keys.
Json when(const char* role, const std::string& name, std::span<const ParamSpec> params) {
  return Json{{"if", {{"properties", {{role, {{"const", name}}}}}, {"required", {role}}}},
              {"then", params_object(params)}};
}

Json workload_schema() {
  Json kinds = Json::array(), cases = Json::array();
  for (const WorkloadInfo* w : workload_kinds()) {  // the registry's kinds and `trace`
    kinds.push_back(w->name);
    cases.push_back(when("kind", w->name, w->params));
  }
  return Json{{"type", "object"},
              {"properties", {{"kind", {{"enum", kinds}}}}},
              {"required", {"kind"}},
              {"allOf", cases},
              {"unevaluatedProperties", false}};
}

// A static balancer's case: a file key (`assignment: FILE`) may give its parameter instead, and
// one of the two is required.
void allow_file_keys(const std::string& balancer, Json& then) {
  for (const FileParamKey& k : file_param_keys()) {
    if (balancer != k.balancer) continue;
    Json& required = then["required"];
    required.erase(std::remove(required.begin(), required.end(), Json(k.param)), required.end());
    if (required.empty()) then.erase("required");
    then["oneOf"] = {{{"required", {k.param}}}, {{"required", {k.key}}}};
  }
}

// A plugin's `params:` may be a map of its own keys (balancer_entries.cpp's map_as_text): each a
// value, or a list of them (a sweep).
void allow_params_map(Json& then) {
  Json& params = then["properties"];
  if (!params.contains("params")) return;
  const Json scalar{{"type", {"string", "number", "boolean"}}};
  params["params"]["anyOf"].push_back(
      {{"type", "object"},
       {"additionalProperties", {{"anyOf", {scalar, {{"type", "array"}, {"items", scalar}}}}}}});
}

Json balancer_entry_schema() {
  Json roles{{"static", Json::array()}, {"dynamic", Json::array()}, {"schedule", Json::array()}};
  Json cases = Json::array();
  for (const BalancerInfo& b : balancer_registry()) {
    const char* role = b.kind() == BalancerKind::kStatic ? "static" : "dynamic";
    roles[role].push_back(b.name);
    cases.push_back(when(role, b.name, b.params));
    if (b.kind() == BalancerKind::kStatic) allow_file_keys(b.name, cases.back()["then"]);
    allow_params_map(cases.back()["then"]);
  }
  for (const ScheduleInfo& s : schedule_registry()) {
    roles["schedule"].push_back(s.name);
    cases.push_back(when("schedule", s.name, s.params));
  }
  Json properties = Json::object();
  for (const KeyDoc& k : balancer_entry_keys()) properties[k.key] = {{"description", k.meaning}};
  for (const ParamSpec& s : balancer_option_specs()) properties[s.name] = param_schema(s);
  for (const auto& [role, names] : roles.items()) properties[role]["enum"] = names;
  properties["label"]["type"] = "string";
  properties["label"]["minLength"] = 1;
  properties["label"]["maxLength"] = kMaxNameBytes;
  properties["baseline"]["type"] = "boolean";
  const Json with_role = {
      {{"required", {"static"}}}, {{"required", {"dynamic"}}}, {{"required", {"schedule"}}}};
  Json dependent = {{"schedule", {{"not", {{"anyOf", {with_role[0], with_role[1]}}}}}}};
  for (const FileParamKey& k : file_param_keys()) {  // a path, in its balancer's entries only
    properties[k.key].update({{"type", "string"}, {"minLength", 1}});
    dependent[k.key] = {{"required", {"static"}},
                        {"properties", {{"static", {{"const", k.balancer}}}}}};
  }
  return Json{{"type", "object"},   {"properties", properties},
              {"anyOf", with_role}, {"dependentSchemas", dependent},
              {"allOf", cases},     {"unevaluatedProperties", false}};
}

Json expectations_schema() {
  Json properties = Json::object();
  for (const ExpectationKey& k : expectation_keys())
    properties[k.key] = {{"description", k.meaning}};
  return Json{
      {"type", "array"},
      {"items", {{"type", "object"}, {"properties", properties}, {"additionalProperties", false}}}};
}

}  // namespace

nlohmann::ordered_json config_json_schema() {
  Json properties = Json::object();
  for (const KeyDoc& k : top_level_table()) properties[k.key] = {{"description", k.meaning}};
  properties["name"].update({{"type", "string"}, {"minLength", 1}, {"maxLength", kMaxNameBytes}});
  properties["workload"]["anyOf"] = {
      {{"$ref", "#/$defs/workload"}},
      {{"type", "array"}, {"minItems", 1}, {"items", {{"$ref", "#/$defs/workload"}}}}};
  properties["platform"].update(section_schema(platform_specs()));
  properties["execution"].update(section_schema(execution_specs()));
  // `repetitions: auto`, a race (config_loader.cpp), beside a number or a sweep of numbers.
  properties["execution"]["properties"]["repetitions"]["anyOf"].push_back(Json{{"const", "auto"}});
  properties["balancers"].update(
      {{"type", "array"}, {"minItems", 1}, {"items", {{"$ref", "#/$defs/balancer_entry"}}}});
  properties["output"].update({{"type", "string"}, {"minLength", 1}});
  properties["expectations"].update(expectations_schema());
  return Json{
      {"$schema", "https://json-schema.org/draft/2020-12/schema"},
      {"title", "lbbench config"},
      {"description",
       "A config of `lbbench run` (generated by `lbbench schema --config` from the "
       "tables the loader reads; `lbbench validate` is the judge). Any parameter may "
       "be a list of values: a sweep."},
      {"type", "object"},
      {"properties", properties},
      {"required", {"workload", "platform", "balancers"}},
      {"additionalProperties", false},
      {"$defs", {{"workload", workload_schema()}, {"balancer_entry", balancer_entry_schema()}}}};
}

}  // namespace lbb
