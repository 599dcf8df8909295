#include "harness/config/balancer_entries.h"

#include <algorithm>
#include <utility>

#include "balancers/balancer.h"
#include "harness/base/schedule.h"
#include "harness/config/config_keys.h"
#include "harness/config/names.h"

namespace lbb {

namespace {

const char* kind_word(BalancerKind kind) {
  return kind == BalancerKind::kStatic ? "static" : "dynamic";
}

// The balancer an entry names under `role` ("static" or "dynamic"); null when absent or wrong.
const BalancerInfo* lookup(const YAML::Node& entry, BalancerKind kind, Problems& problems) {
  const std::string role = kind_word(kind);
  const YAML::Node n = entry[role];
  if (!n) return nullptr;
  if (!n.IsScalar()) {
    problems.at(n, role + " must name a balancer");
    return nullptr;
  }
  const std::string name = n.Scalar();
  const BalancerInfo* info = find_balancer(name, kind);
  if (!info) info = find_balancer(name);
  if (!info) {
    std::string known;
    for (const auto& b : balancer_registry())
      if (b.kind() == kind) known += (known.empty() ? "" : ", ") + b.name;
    problems.at(n, "unknown " + role + " balancer '" + name + "' (known: " + known + ")");
    return nullptr;
  }
  if (info->kind() != kind) {
    const std::string is = kind_word(info->kind());
    problems.at(n,
                "'" + name + "' is a " + is + " balancer; write it as '" + is + ": " + name + "'");
    return nullptr;
  }
  return info;
}

// The schedule an entry names; false when the entry is unusable.
bool lookup_schedule(const YAML::Node& entry, const ScheduleInfo*& schedule, Problems& problems) {
  const YAML::Node n = entry["schedule"];
  if (!n) return true;
  schedule = n.IsScalar() ? find_schedule(n.Scalar()) : nullptr;
  if (!schedule) {
    std::string known;
    for (const auto& x : schedule_registry()) known += (known.empty() ? "" : ", ") + x.name;
    problems.at(n, "unknown schedule '" + (n.IsScalar() ? n.Scalar() : std::string()) +
                       "' (known: " + known + ")");
    return false;
  }
  if (entry["static"] || entry["dynamic"]) {
    problems.at(entry,
                "a schedule entry takes no 'static:' or 'dynamic:': the threads take "
                "the work as they go");
    return false;
  }
  return true;
}

// A plugin's `params: { k: v, ... }` as the text its `params` parameter holds, "k=v;k=v" in the
// map's order; a list value is a sweep, so the axis holds every combination.
Axis map_as_text(const YAML::Node& key_node, const YAML::Node& map, Problems& problems) {
  Axis a{key_node.Scalar(), {std::string()}, {}};
  for (const auto& kv : map) {
    const std::string key = kv.first.Scalar();
    if (key.empty() || key.find_first_of("=;") != std::string::npos)
      problems.at(kv.first, "a plugin param's name must be non-empty, without '=' or ';'");
    std::vector<YAML::Node> given;
    if (kv.second.IsSequence())
      for (const YAML::Node& v : kv.second) given.push_back(v);
    else
      given.push_back(kv.second);
    std::vector<std::string> options;
    for (const YAML::Node& v : given)
      if (!v.IsScalar() || v.Scalar().find(';') != std::string::npos)
        problems.at(v,
                    "plugin param '" + key + "' must be a value (or a list of them) without ';'");
      else
        options.push_back(key + "=" + v.Scalar());
    std::vector<ParamValue> product;
    for (const ParamValue& prefix : a.values)
      for (const std::string& o : options) {
        const std::string& p = std::get<std::string>(prefix);
        product.push_back(p.empty() ? o : p + ";" + o);
      }
    a.values = std::move(product);
  }
  a.nodes.assign(a.values.size(), map);
  return a;
}

// One parameter key of an entry, given to whichever of its balancers (or schedule) owns it.
void read_param(const YAML::Node& key_node, const YAML::Node& value, const BalancerInfo* st,
                const BalancerInfo* dy, const ScheduleInfo* sc, BalancerEntry& e,
                Problems& problems) {
  const std::string key = key_node.Scalar();
  if (sc) {
    if (const ParamSpec* spec = find_spec(sc->params, key)) {
      Axis a = read_axis(*spec, value, problems);
      if (!a.values.empty()) e.schedule_axes.push_back(std::move(a));
    } else {
      problems.at(key_node, "unknown parameter '" + key + "' for schedule " + sc->name +
                                " (expected: " +
                                known_keys(sc->params, {"schedule", "label", "baseline"}) + ")");
    }
    return;
  }
  const ParamSpec* ss = st ? find_spec(st->params, key) : nullptr;
  const ParamSpec* ds = dy ? find_spec(dy->params, key) : nullptr;
  if (ss && ds) {
    problems.at(key_node, "parameter '" + key + "' belongs to both " + st->name + " and " +
                              dy->name + "; give them separate entries");
  } else if ((ss || ds) && key == "params" && value.IsMap()) {
    Axis a = map_as_text(key_node, value, problems);
    if (!a.values.empty()) (ss ? e.static_axes : e.dynamic_axes).push_back(std::move(a));
  } else if (ss || ds) {
    Axis a = read_axis(ss ? *ss : *ds, value, problems);
    if (!a.values.empty()) (ss ? e.static_axes : e.dynamic_axes).push_back(std::move(a));
  } else if (st || dy) {
    const std::string owners = (st ? st->name : std::string()) + (st && dy ? " or " : "") +
                               (dy ? dy->name : std::string());
    std::string known =
        known_keys(st ? std::span<const ParamSpec>(st->params) : std::span<const ParamSpec>(),
                   {"static", "dynamic", "label", "baseline"});
    if (dy)
      for (const auto& s : dy->params) known += ", " + s.name;
    problems.at(key_node,
                "unknown parameter '" + key + "' for " + owners + " (expected: " + known + ")");
  }
}

// A file key's value (`assignment: FILE` of a prescribed entry): the parameter the file gives.
void read_file_param(const FileParamKey& k, const YAML::Node& key_node, const YAML::Node& value,
                     const BalancerInfo* st, BalancerEntry& e, Problems& problems) {
  const std::string key = k.key;
  if (!st || st->name != k.balancer)
    return problems.at(key_node, key + " belongs to { static: " + k.balancer + " }");
  if (std::as_const(e.node)[k.param])
    return problems.at(key_node, "give " + key + " or " + k.param + ", not both");
  if (!value.IsScalar()) return problems.at(value, key + " must be a file path");
  try {
    e.static_axes.push_back({k.param, {k.read(value.Scalar())}, {value}});
  } catch (const std::invalid_argument& x) {
    problems.at(value, x.what());
  }
}

// An option of the entry's between-step balancer (balance_every, model, model_window).
void read_option(const ParamSpec& spec, const YAML::Node& key_node, const YAML::Node& value,
                 const BalancerInfo* dy, BalancerEntry& e, Problems& problems) {
  if (dy && dy->role != BalancerRole::kBetweenSteps)
    return problems.at(key_node, spec.name + " applies to a between-step balancer; " + dy->name +
                                     " decides " + std::string(role_name(dy->role)));
  if (!e.node["dynamic"])
    return problems.at(key_node, spec.name + " applies to a dynamic: between-step balancer");
  if (!dy) return;  // the unknown name is the entry's problem
  Axis a = read_axis(spec, value, problems);
  if (!a.values.empty()) e.option_axes.push_back(std::move(a));
}

void check_required(const BalancerInfo* info, const std::vector<Axis>& axes, const YAML::Node& node,
                    Problems& problems) {
  if (!info) return;
  for (const auto& spec : info->params)
    if (!spec.default_value &&
        std::none_of(axes.begin(), axes.end(), [&](const Axis& a) { return a.key == spec.name; }))
      problems.at(node, info->name + ": missing required parameter '" + spec.name + "'");
}

}  // namespace

std::optional<BalancerEntry> read_balancer(const YAML::Node& node, Problems& problems) {
  if (!node.IsMap()) {
    problems.at(node, "a balancers entry must be a map, e.g. { static: block }");
    return std::nullopt;
  }
  BalancerEntry e{node, {}, {}, {}, {}, {}, {}, {}, {}, false};
  const BalancerInfo* st = lookup(node, BalancerKind::kStatic, problems);
  const BalancerInfo* dy = lookup(node, BalancerKind::kDynamic, problems);
  const ScheduleInfo* sc = nullptr;
  if (!lookup_schedule(node, sc, problems)) return std::nullopt;
  if (sc) e.schedule_name = sc->name;
  if (!node["static"] && !node["dynamic"] && !node["schedule"]) {
    problems.at(node, "a balancers entry needs 'static:', 'dynamic:' or both");
    return std::nullopt;
  }
  if (st) e.static_name = st->name;
  if (dy) e.dynamic_name = dy->name;
  if (const YAML::Node label = node["label"]) {
    if (!label.IsScalar())
      problems.at(label, "label must be a string");
    else if (auto why = label_problem(label.Scalar()))
      problems.at(label, "label " + *why);
    else
      e.label = label.Scalar();
  }
  if (e.label.empty())
    e.label = e.static_name + (e.static_name.empty() || e.dynamic_name.empty() ? "" : "+") +
              e.dynamic_name + e.schedule_name;
  if (const YAML::Node b = node["baseline"]) {
    bool ok = b.IsScalar();
    if (ok) ok = YAML::convert<bool>::decode(b, e.baseline);
    if (!ok) problems.at(b, "baseline must be true or false");
  }
  for (const auto& kv : node) {
    const std::string key = kv.first.Scalar();
    if (const FileParamKey* file = find_file_param_key(key))
      read_file_param(*file, kv.first, kv.second, st, e, problems);
    else if (const ParamSpec* option = find_spec(balancer_option_specs(), key))
      read_option(*option, kv.first, kv.second, dy, e, problems);
    else if (!is_balancer_entry_key(key))
      read_param(kv.first, kv.second, st, dy, sc, e, problems);
  }
  check_required(st, e.static_axes, node, problems);
  check_required(dy, e.dynamic_axes, node, problems);
  if ((node["static"] && !st) || (node["dynamic"] && !dy)) return std::nullopt;
  return e;
}

}  // namespace lbb
