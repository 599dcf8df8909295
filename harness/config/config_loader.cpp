// YAML config -> validated, expanded RunSpecs. Every problem is reported as file:line:col.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "balancers/balancer.h"
#include "harness/config/run_spec.h"
#include "harness/exec/executor_registry.h"
#include "harness/schedule.h"
#include "workloads/workload.h"

namespace lbb {

namespace {

const std::vector<ParamSpec>& platform_specs() {
  static const std::vector<ParamSpec> specs = {
      required(int_param("processors", 1, "processors (OpenMP threads)", 1, 4096)),
      string_param("topology", "chain", "processor graph for neighbour-restricted balancers",
                   {"chain", "ring", "mesh2d", "hypercube", "complete"}),
      reals_param("speeds", {},
                  "relative speed per processor in (0, 1], one per processor (empty: all 1); "
                  "emulated by busy work after each module",
                  1e-3, 1.0),
      real_param("external_load", 0.0,
                 "m: largest transient external load level; a processor under load L runs at "
                 "speed s / (1 + L) (Zaki, Li & Parthasarathy 1997); 0: none",
                 0.0, 1000.0),
      real_param("load_persist_s", 0.2, "d: seconds one external load level lasts", 1e-3),
      int_param("load_seed", 1, "seed of the external load levels", 0),
  };
  return specs;
}

const std::vector<ParamSpec>& execution_specs() {
  static const std::vector<ParamSpec> specs = {
      string_param("mode", "real", "real: threads execute the kernels", {"real"}),
      int_param("steps", 50, "recorded steps", 1, 1e9),
      int_param("warmup", 0, "steps run first and not recorded", 0, 1e9),
      int_param("repetitions", 1, "independent runs of each configuration", 1, 10000),
      bool_param("module_detail", false, "archive module/cost and module/owner per step"),
      string_param("executor", "auto", "auto: the first of the executor table that runs the entry",
                   executor_choices()),
  };
  return specs;
}

// Collects problems with their positions.
class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}
  void add_override(const YAML::Node& node, const std::string& text) {
    overrides_.push_back({node, text});
    if (node.IsSequence())
      for (const auto& child : node) add_override(child, text);
  }
  std::string where(const YAML::Node& node) const {
    for (const auto& [n, text] : overrides_)
      if (n.is(node)) return "--set " + text;
    const YAML::Mark m = node.Mark();
    if (m.line < 0) return file_;
    return file_ + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }
  void at(const YAML::Node& node, const std::string& message) {
    std::string line = where(node) + ": " + message;
    if (seen_.insert(line).second) lines_.push_back(line);
  }
  bool any() const { return !lines_.empty(); }
  std::string text() const {
    std::string out;
    for (const auto& l : lines_) out += (out.empty() ? "" : "\n") + l;
    return out;
  }

 private:
  std::string file_;
  std::vector<std::pair<YAML::Node, std::string>> overrides_;
  std::vector<std::string> lines_;
  std::set<std::string> seen_;
};

// One configurable value that may be swept: all its values, each with its YAML node.
struct Axis {
  std::string key;
  std::vector<ParamValue> values;
  std::vector<YAML::Node> nodes;
};

std::optional<ParamValue> scalar_value(const YAML::Node& n, ParamType type) {
  if (!n.IsScalar()) return std::nullopt;
  try {
    switch (type) {
      case ParamType::kInt:
        return ParamValue(n.as<std::int64_t>());
      case ParamType::kReal:
        return ParamValue(n.as<double>());
      case ParamType::kBool:
        return ParamValue(n.as<bool>());
      case ParamType::kString:
        return ParamValue(n.as<std::string>());
      case ParamType::kRealList:
        return std::nullopt;
    }
  } catch (const YAML::Exception&) {
  }
  return std::nullopt;
}

std::optional<ParamValue> list_value(const YAML::Node& n) {
  if (!n.IsSequence()) return std::nullopt;
  std::vector<double> out;
  for (const auto& e : n) {
    auto v = scalar_value(e, ParamType::kReal);
    if (!v) return std::nullopt;
    out.push_back(std::get<double>(*v));
  }
  return ParamValue(std::move(out));
}

// Reads one parameter: a value, or a list of values (a sweep).
Axis read_axis(const ParamSpec& spec, const YAML::Node& node, Problems& problems) {
  Axis axis{spec.name, {}, {}};
  auto take = [&](const YAML::Node& n) {
    std::optional<ParamValue> v =
        spec.type == ParamType::kRealList ? list_value(n) : scalar_value(n, spec.type);
    if (!v) {
      const std::string type(type_name(spec.type));
      problems.at(n, spec.name + " must be " + (type[0] == 'i' ? "an " : "a ") + type);
      return;
    }
    if (auto err = check_value(spec, *v)) {
      problems.at(n, spec.name + " " + *err);
      return;
    }
    axis.values.push_back(std::move(*v));
    axis.nodes.push_back(n);
  };
  const bool sweep = spec.type == ParamType::kRealList
                         ? node.IsSequence() && node.size() > 0 && node[0].IsSequence()
                         : node.IsSequence();
  if (sweep) {
    if (node.size() == 0) problems.at(node, spec.name + ": an empty sweep list");
    for (const auto& e : node) take(e);
  } else {
    take(node);
  }
  return axis;
}

std::string known_keys(std::span<const ParamSpec> specs, std::vector<std::string> extra = {}) {
  for (const auto& s : specs) extra.push_back(s.name);
  std::string out;
  for (const auto& k : extra) out += (out.empty() ? "" : ", ") + k;
  return out;
}

// Reads a section whose keys are all parameters of `specs` (except `skip` keys).
std::vector<Axis> read_section(const YAML::Node& section, const std::string& name,
                               std::span<const ParamSpec> specs,
                               const std::vector<std::string>& skip, Problems& problems) {
  std::vector<Axis> axes;
  std::set<std::string> given;
  for (const auto& kv : section) {
    const std::string key = kv.first.Scalar();
    if (std::find(skip.begin(), skip.end(), key) != skip.end()) continue;
    const ParamSpec* spec = find_spec(specs, key);
    if (!spec) {
      problems.at(kv.first, "unknown key '" + key + "' in " + name +
                                " (expected: " + known_keys(specs, skip) + ")");
      continue;
    }
    given.insert(key);
    Axis a = read_axis(*spec, kv.second, problems);
    if (!a.values.empty()) axes.push_back(std::move(a));
  }
  for (const auto& spec : specs)
    if (!spec.default_value && !given.count(spec.name))
      problems.at(section, name + ": missing required key '" + spec.name + "'");
  return axes;
}

// Navigates/creates a.b.c (numbers index sequences) and sets it to a YAML-parsed value.
void apply_override(YAML::Node root, const std::string& text, Problems& problems) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + text + ": expected key.path=value");
  const std::string path = text.substr(0, eq), value = text.substr(eq + 1);
  YAML::Node parsed;
  try {
    parsed = YAML::Load(value.empty() ? "''" : value);
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + text + ": " + e.msg);
  }
  std::vector<std::string> keys;
  std::stringstream ss(path);
  for (std::string k; std::getline(ss, k, '.');) keys.push_back(k);
  YAML::Node node = root;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string& k = keys[i];
    const bool last = i + 1 == keys.size();
    if (node.IsSequence()) {
      std::size_t idx = 0;
      try {
        idx = std::stoul(k);
      } catch (...) {
        throw ConfigError("--set " + text + ": '" + k + "' must index a list");
      }
      if (idx >= node.size())
        throw ConfigError("--set " + text + ": index " + k + " is past the list's end");
      if (last) {
        node[idx] = parsed;
      } else {
        YAML::Node next = node[idx];
        node.reset(next);
      }
    } else {
      if (!node.IsMap() && !node.IsNull())
        throw ConfigError("--set " + text + ": '" + k + "' is inside a value, not a section");
      if (last) {
        node[k] = parsed;
      } else {
        YAML::Node next = node[k];
        node.reset(next);
      }
    }
  }
  problems.add_override(parsed, text);
}

struct BalancerEntry {
  YAML::Node node;
  std::string static_name, dynamic_name, schedule_name, label;
  std::vector<Axis> static_axes, dynamic_axes, schedule_axes;
};

std::optional<BalancerEntry> read_balancer(const YAML::Node& node, Problems& problems) {
  if (!node.IsMap()) {
    problems.at(node, "a balancers entry must be a map, e.g. { static: block }");
    return std::nullopt;
  }
  BalancerEntry e{node, {}, {}, {}, {}, {}, {}, {}};
  const BalancerInfo* st = nullptr;
  const BalancerInfo* dy = nullptr;
  auto lookup = [&](const std::string& role, BalancerKind kind) -> const BalancerInfo* {
    const YAML::Node n = node[role];
    if (!n) return nullptr;
    if (!n.IsScalar()) {
      problems.at(n, role + " must name a balancer");
      return nullptr;
    }
    const std::string name = n.Scalar();
    const BalancerInfo* info = find_balancer(name);
    if (!info) {
      std::string known;
      for (const auto& b : balancer_registry())
        if (b.kind == kind) known += (known.empty() ? "" : ", ") + b.name;
      problems.at(n, "unknown " + role + " balancer '" + name + "' (known: " + known + ")");
      return nullptr;
    }
    if (info->kind != kind) {
      problems.at(
          n, "'" + name + "' is a " + (info->kind == BalancerKind::kStatic ? "static" : "dynamic") +
                 " balancer; write it as '" +
                 (info->kind == BalancerKind::kStatic ? "static" : "dynamic") + ": " + name + "'");
      return nullptr;
    }
    return info;
  };
  st = lookup("static", BalancerKind::kStatic);
  dy = lookup("dynamic", BalancerKind::kDynamic);
  const ScheduleInfo* sc = nullptr;
  if (const YAML::Node n = node["schedule"]) {
    sc = n.IsScalar() ? find_schedule(n.Scalar()) : nullptr;
    if (!sc) {
      std::string known;
      for (const auto& x : schedule_registry()) known += (known.empty() ? "" : ", ") + x.name;
      problems.at(n, "unknown schedule '" + (n.IsScalar() ? n.Scalar() : std::string()) +
                         "' (known: " + known + ")");
      return std::nullopt;
    }
    if (node["static"] || node["dynamic"]) {
      problems.at(node,
                  "a schedule entry takes no 'static:' or 'dynamic:': the threads take "
                  "the work as they go");
      return std::nullopt;
    }
    e.schedule_name = sc->name;
  }
  if (!node["static"] && !node["dynamic"] && !node["schedule"]) {
    problems.at(node, "a balancers entry needs 'static:', 'dynamic:' or both");
    return std::nullopt;
  }
  if (st) e.static_name = st->name;
  if (dy) e.dynamic_name = dy->name;
  if (node["label"]) {
    if (node["label"].IsScalar())
      e.label = node["label"].Scalar();
    else
      problems.at(node["label"], "label must be a string");
  }
  for (const auto& kv : node) {
    const std::string key = kv.first.Scalar();
    if (key == "static" || key == "dynamic" || key == "schedule" || key == "label") continue;
    if (sc) {
      if (const ParamSpec* spec = find_spec(sc->params, key)) {
        Axis a = read_axis(*spec, kv.second, problems);
        if (!a.values.empty()) e.schedule_axes.push_back(std::move(a));
      } else {
        problems.at(kv.first, "unknown parameter '" + key + "' for schedule " + sc->name +
                                  " (expected: " + known_keys(sc->params, {"schedule", "label"}) +
                                  ")");
      }
      continue;
    }
    const ParamSpec* ss = st ? find_spec(st->params, key) : nullptr;
    const ParamSpec* ds = dy ? find_spec(dy->params, key) : nullptr;
    if (ss && ds) {
      problems.at(kv.first, "parameter '" + key + "' belongs to both " + st->name + " and " +
                                dy->name + "; give them separate entries");
    } else if (ss) {
      Axis a = read_axis(*ss, kv.second, problems);
      if (!a.values.empty()) e.static_axes.push_back(std::move(a));
    } else if (ds) {
      Axis a = read_axis(*ds, kv.second, problems);
      if (!a.values.empty()) e.dynamic_axes.push_back(std::move(a));
    } else if (st || dy) {
      std::string owners = (st ? st->name : std::string()) + (st && dy ? " or " : "") +
                           (dy ? dy->name : std::string());
      std::string known =
          known_keys(st ? std::span<const ParamSpec>(st->params) : std::span<const ParamSpec>(),
                     {"static", "dynamic", "label"});
      if (dy)
        for (const auto& s : dy->params) known += ", " + s.name;
      problems.at(kv.first,
                  "unknown parameter '" + key + "' for " + owners + " (expected: " + known + ")");
    }
  }
  for (const auto* info : {st, dy}) {
    if (!info) continue;
    const auto& axes = info == st ? e.static_axes : e.dynamic_axes;
    for (const auto& spec : info->params)
      if (!spec.default_value &&
          std::none_of(axes.begin(), axes.end(), [&](const Axis& a) { return a.key == spec.name; }))
        problems.at(node, info->name + ": missing required parameter '" + spec.name + "'");
  }
  if ((node["static"] && !st) || (node["dynamic"] && !dy)) return std::nullopt;
  return e;
}

// Calls f(choice) for every combination of axis values; choice[i] indexes axes[i].values.
template <typename F>
void for_each_combination(const std::vector<const Axis*>& axes, F&& f) {
  std::vector<std::size_t> choice(axes.size(), 0);
  while (true) {
    f(choice);
    std::size_t i = 0;
    for (; i < axes.size(); ++i) {
      if (++choice[i] < axes[i]->values.size()) break;
      choice[i] = 0;
    }
    if (i == axes.size()) return;
  }
}

void emit_params(YAML::Emitter& out, const Params& params) {
  for (const auto& [k, v] : params.values()) {
    out << YAML::Key << k << YAML::Value;
    std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, std::vector<double>>) {
            out << YAML::Flow << YAML::BeginSeq;
            for (double d : x) out << d;
            out << YAML::EndSeq;
          } else {
            out << x;
          }
        },
        v);
  }
}

std::string resolved_yaml(const RunSpec& r, const std::string& output) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value << r.name;
  out << YAML::Key << "workload" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "kind" << YAML::Value << r.workload;
  emit_params(out, r.workload_params);
  out << YAML::EndMap;
  out << YAML::Key << "platform" << YAML::Value << YAML::BeginMap << YAML::Key << "processors"
      << YAML::Value << r.processors << YAML::Key << "topology" << YAML::Value
      << std::string(topology_name(r.topology));
  if (!r.speeds.empty()) {
    out << YAML::Key << "speeds" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (double s : r.speeds) out << s;
    out << YAML::EndSeq;
  }
  out << YAML::Key << "external_load" << YAML::Value << r.external_load.max << YAML::Key
      << "load_persist_s" << YAML::Value << r.external_load.persist_s << YAML::Key << "load_seed"
      << YAML::Value << r.external_load.seed << YAML::EndMap;
  out << YAML::Key << "execution" << YAML::Value << YAML::BeginMap << YAML::Key << "mode"
      << YAML::Value << r.mode << YAML::Key << "steps" << YAML::Value << r.steps << YAML::Key
      << "warmup" << YAML::Value << r.warmup << YAML::Key << "repetitions" << YAML::Value
      << r.repetitions << YAML::Key << "module_detail" << YAML::Value << r.module_detail
      << YAML::Key << "executor" << YAML::Value << r.executor << YAML::EndMap;
  out << YAML::Key << "balancers" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
  if (!r.balancer.static_name.empty()) {
    out << YAML::Key << "static" << YAML::Value << r.balancer.static_name;
    emit_params(out, r.balancer.static_params);
  }
  if (!r.balancer.dynamic_name.empty()) {
    out << YAML::Key << "dynamic" << YAML::Value << r.balancer.dynamic_name;
    emit_params(out, r.balancer.dynamic_params);
  }
  if (!r.balancer.schedule_name.empty()) {
    out << YAML::Key << "schedule" << YAML::Value << r.balancer.schedule_name;
    emit_params(out, r.balancer.schedule_params);
  }
  out << YAML::Key << "label" << YAML::Value << r.balancer.label;
  out << YAML::EndMap << YAML::EndSeq;
  out << YAML::Key << "output" << YAML::Value << output;
  out << YAML::EndMap;
  return out.c_str();
}

std::string swept(const std::vector<const Axis*>& axes, const std::vector<std::size_t>& choice) {
  std::string out;
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (axes[i]->values.size() > 1)
      out += (out.empty() ? "" : " ") + axes[i]->key + "=" + to_string(axes[i]->values[choice[i]]);
  return out;
}

}  // namespace

Config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot read the config file");
  std::stringstream text;
  text << in.rdbuf();
  YAML::Node root;
  try {
    root = YAML::Load(text.str());
  } catch (const YAML::ParserException& e) {
    throw ConfigError(path + ":" + std::to_string(e.mark.line + 1) + ":" +
                      std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  Problems problems(path);
  if (!root.IsMap()) {
    problems.at(root, "a config must be a map with workload, platform, execution, balancers");
    throw ConfigError(problems.text());
  }
  for (const auto& o : overrides) apply_override(root, o, problems);

  Config config;
  config.path = path;
  config.name = std::filesystem::path(path).stem().string();
  const std::vector<std::string> top = {"name",      "workload",  "platform",
                                        "execution", "balancers", "output"};
  for (const auto& kv : root) {
    const std::string key = kv.first.Scalar();
    if (std::find(top.begin(), top.end(), key) == top.end()) {
      std::string known;
      for (const auto& k : top) known += (known.empty() ? "" : ", ") + k;
      problems.at(kv.first, "unknown key '" + key + "' (expected: " + known + ")");
    }
  }
  if (root["name"]) {
    if (root["name"].IsScalar() && !root["name"].Scalar().empty())
      config.name = root["name"].Scalar();
    else
      problems.at(root["name"], "name must be a non-empty string");
  }
  config.output = "results/" + config.name + ".h5";
  if (root["output"]) {
    if (root["output"].IsScalar() && !root["output"].Scalar().empty())
      config.output = root["output"].Scalar();
    else
      problems.at(root["output"], "output must be a file path");
  }

  // workload: one map, or a list of maps (one config covering several workloads)
  struct WorkloadEntry {
    const WorkloadInfo* info;
    YAML::Node node;
    std::vector<Axis> axes;
  };
  std::vector<WorkloadEntry> workloads;
  auto read_workload = [&](const YAML::Node& wl) {
    if (!wl.IsMap()) {
      problems.at(wl, "workload must be a map with a 'kind' (or a list of such maps)");
    } else if (!wl["kind"]) {
      problems.at(wl, "workload: missing required key 'kind'");
    } else {
      const std::string kind = wl["kind"].IsScalar() ? wl["kind"].Scalar() : "";
      const WorkloadInfo* info = find_workload(kind);
      if (!info) {
        std::string known;
        for (const auto& w : workload_registry()) known += (known.empty() ? "" : ", ") + w.name;
        problems.at(wl["kind"], "unknown workload '" + kind + "' (known: " + known + ")");
      } else {
        workloads.push_back(
            {info, wl, read_section(wl, "workload", info->params, {"kind"}, problems)});
      }
    }
  };
  const YAML::Node wl_root = root["workload"];
  if (!wl_root) {
    problems.at(root, "missing required key 'workload'");
  } else if (wl_root.IsSequence()) {
    if (wl_root.size() == 0) problems.at(wl_root, "workload: the list is empty");
    for (const auto& wl : wl_root) read_workload(wl);
  } else {
    read_workload(wl_root);
  }

  auto section = [&](const char* name, std::span<const ParamSpec> specs, bool needed) {
    const YAML::Node n = root[name];
    if (!n) {
      if (needed) problems.at(root, std::string("missing required key '") + name + "'");
      return std::vector<Axis>{};
    }
    if (!n.IsMap()) {
      problems.at(n, std::string(name) + " must be a map");
      return std::vector<Axis>{};
    }
    return read_section(n, name, specs, {}, problems);
  };
  std::vector<Axis> platform_axes = section("platform", platform_specs(), true);
  std::vector<Axis> execution_axes = section("execution", execution_specs(), false);

  std::vector<BalancerEntry> entries;
  const YAML::Node bl = root["balancers"];
  if (!bl) {
    problems.at(root, "missing required key 'balancers'");
  } else if (!bl.IsSequence() || bl.size() == 0) {
    problems.at(bl, "balancers must be a non-empty list, e.g. [ { static: block } ]");
  } else {
    for (const auto& e : bl)
      if (auto entry = read_balancer(e, problems)) entries.push_back(std::move(*entry));
  }
  if (problems.any()) throw ConfigError(problems.text());

  // Expand: workloads x global sweeps x balancer entries x their sweeps.
  for (const WorkloadEntry& we : workloads) {
    const WorkloadInfo* workload = we.info;
    const YAML::Node& wl = we.node;
    std::vector<const Axis*> global;
    for (const std::vector<Axis>* axes :
         {&we.axes, &std::as_const(platform_axes), &std::as_const(execution_axes)})
      for (const auto& a : *axes) global.push_back(&a);
    const std::size_t n_workload = we.axes.size(), n_platform = platform_axes.size();
    for_each_combination(global, [&](const std::vector<std::size_t>& g) {
      RunSpec base;
      base.name = config.name;
      base.workload = workload->name;
      Params wp, pp, ep;
      const YAML::Node* processors_node = nullptr;
      const YAML::Node* topology_node = nullptr;
      const YAML::Node* speeds_node = nullptr;
      for (std::size_t i = 0; i < global.size(); ++i) {
        const Axis& a = *global[i];
        Params& target = i < n_workload ? wp : i < n_workload + n_platform ? pp : ep;
        target.set(a.key, a.values[g[i]]);
        if (a.key == "processors" && i >= n_workload) processors_node = &a.nodes[g[i]];
        if (a.key == "topology" && i >= n_workload) topology_node = &a.nodes[g[i]];
        if (a.key == "speeds" && i >= n_workload) speeds_node = &a.nodes[g[i]];
      }
      try {
        base.workload_params = resolve_params(workload->params, wp);
      } catch (const ParamError& e) {
        problems.at(wl, e.what());
        return;
      }
      Params platform = resolve_params(platform_specs(), pp);
      Params execution = resolve_params(execution_specs(), ep);
      base.processors = static_cast<int>(platform.integer("processors"));
      base.topology = *parse_topology(platform.text("topology"));
      base.speeds = platform.reals("speeds");
      base.external_load.max = platform.real("external_load");
      base.external_load.persist_s = platform.real("load_persist_s");
      base.external_load.seed = static_cast<std::uint64_t>(platform.integer("load_seed"));
      base.mode = execution.text("mode");
      base.steps = static_cast<int>(execution.integer("steps"));
      base.warmup = static_cast<int>(execution.integer("warmup"));
      base.repetitions = static_cast<int>(execution.integer("repetitions"));
      base.module_detail = execution.boolean("module_detail");
      base.executor = execution.text("executor");
      int modules = 0;
      try {
        modules = workload->module_count(base.workload_params);
      } catch (const std::invalid_argument& e) {
        problems.at(wl, e.what());
        return;
      }
      const YAML::Node where_p = processors_node ? *processors_node : root["platform"];
      if (base.processors > modules)
        problems.at(where_p, "processors (" + std::to_string(base.processors) +
                                 ") exceeds the workload's " + std::to_string(modules) +
                                 " modules");
      if (!base.speeds.empty() && static_cast<int>(base.speeds.size()) != base.processors)
        problems.at(speeds_node ? *speeds_node : where_p,
                    "speeds has " + std::to_string(base.speeds.size()) + " values for " +
                        std::to_string(base.processors) + " processors");
      if (auto err = topology_size_error(base.topology, base.processors))
        problems.at(topology_node ? *topology_node : where_p, *err);
      const std::string global_label = swept(global, g);

      for (const auto& entry : entries) {
        // Level workloads (tasks born every level) have no static partition.
        if (workload->make_levels && !entry.static_name.empty()) {
          problems.at(entry.node["static"], workload->name +
                                                " creates its tasks level by "
                                                "level: there is no static partition (use "
                                                "dynamic: or schedule:)");
          continue;
        }
        std::vector<const Axis*> local;
        for (const auto& a : entry.static_axes) local.push_back(&a);
        for (const auto& a : entry.dynamic_axes) local.push_back(&a);
        for (const auto& a : entry.schedule_axes) local.push_back(&a);
        const std::size_t n_static = entry.static_axes.size();
        const std::size_t n_balancer = n_static + entry.dynamic_axes.size();
        for_each_combination(local, [&](const std::vector<std::size_t>& c) {
          RunSpec run = base;
          Params sp, dp, cp;
          for (std::size_t i = 0; i < local.size(); ++i)
            (i < n_static     ? sp
             : i < n_balancer ? dp
                              : cp)
                .set(local[i]->key, local[i]->values[c[i]]);
          BalancerChoice& b = run.balancer;
          b.static_name = entry.static_name;
          b.dynamic_name = entry.dynamic_name;
          b.schedule_name = entry.schedule_name;
          if (!b.static_name.empty())
            b.static_params = resolve_params(find_balancer(b.static_name)->params, sp);
          if (!b.dynamic_name.empty())
            b.dynamic_params = resolve_params(find_balancer(b.dynamic_name)->params, dp);
          if (!b.schedule_name.empty())
            b.schedule_params = resolve_params(find_schedule(b.schedule_name)->params, cp);
          b.label = entry.label;
          if (b.label.empty())
            b.label = b.static_name + (b.static_name.empty() || b.dynamic_name.empty() ? "" : "+") +
                      b.dynamic_name + b.schedule_name;
          if (const std::string sw = swept(local, c); !sw.empty()) b.label += "(" + sw + ")";
          run.sweep_label = global_label;
          run.resolved_yaml = resolved_yaml(run, config.output);
          config.runs.push_back(std::move(run));
        });
      }
    });
  }
  if (problems.any()) throw ConfigError(problems.text());
  return config;
}

}  // namespace lbb
