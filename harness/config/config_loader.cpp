// YAML config -> checked, expanded RunSpecs: read strictly (yaml_reader), apply --set
// (config_overrides), read each section against its specs (config_values, balancer_entries),
// bound and expand the sweeps (sweep_expansion), each run carrying its resolved YAML.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <utility>

#include "core/text.h"
#include "harness/base/process_world.h"
#include "harness/config/config_keys.h"
#include "harness/config/config_loader.h"
#include "harness/config/config_overrides.h"
#include "harness/config/config_values.h"
#include "harness/config/expectations.h"
#include "harness/config/names.h"
#include "harness/config/sweep_expansion.h"
#include "harness/config/yaml_reader.h"
#include "harness/formats/trace_workload.h"

namespace lbb {

namespace {

constexpr int kAutoRounds = 20;  // repetitions: auto: a race of at most this many rounds

// Keys renamed, still read under their old names for one release: a config written for the
// release before runs unchanged, and says what to write instead.
struct RenamedKey {
  const char* section;
  const char* old_name;
  const char* name;
};
constexpr RenamedKey kRenamedKeys[] = {{"execution", "replay_archive", "replay_set"}};

// Moves each old name's value to its new name (a run's resolved YAML has the new one); one note a
// key for the config's reader. Both names given is a problem: which one was meant is unknown.
std::vector<std::string> rename_old_keys(const YAML::Node& root, Problems& problems) {
  std::vector<std::string> notes;
  for (const RenamedKey& k : kRenamedKeys) {
    YAML::Node section = root[k.section];
    if (!section || !section.IsMap() || !std::as_const(section)[k.old_name]) continue;
    const std::string old_key = std::string(k.section) + "." + k.old_name,
                      key = std::string(k.section) + "." + k.name;
    const YAML::Node value = std::as_const(section)[k.old_name];
    if (std::as_const(section)[k.name]) {
      problems.at(value, old_key + " and " + key + " both given: " + k.old_name + " is " + k.name +
                             "'s old name; give " + k.name + " alone");
      continue;
    }
    notes.push_back(printable(problems.where(value)) + ": " + old_key + " is deprecated; use " +
                    key);
    section[k.name] = value;
    section.remove(k.old_name);
  }
  return notes;
}

// execution.module_detail, the boolean before execution.record: true is record: modules; false
// was its default, and record's default (auto) stands for it. A note for the config's reader.
std::optional<std::string> alias_module_detail(const YAML::Node& root, Problems& problems) {
  YAML::Node section = root["execution"];
  if (!section || !section.IsMap() || !std::as_const(section)["module_detail"]) return {};
  const YAML::Node value = std::as_const(section)["module_detail"];
  if (std::as_const(section)["record"]) {
    problems.at(value,
                "execution.module_detail and execution.record both given: module_detail is "
                "record's old form (true: record: modules); give record alone");
    return {};
  }
  const Axis axis = read_axis(bool_param("module_detail", false, ""), value, problems);
  section.remove("module_detail");  // said above when it is no boolean
  if (axis.values.empty()) return {};
  std::vector<std::string> levels;
  for (const ParamValue& v : axis.values) levels.push_back(std::get<bool>(v) ? "modules" : "auto");
  if (levels.size() > 1)  // a sweep of it
    for (const std::string& level : levels) section["record"].push_back(level);
  else if (levels.front() != "auto")
    section["record"] = levels.front();
  return printable(problems.where(value)) +
         ": execution.module_detail is deprecated; use execution.record" +
         (levels.size() == 1 && levels.front() == "auto"
              ? " (module_detail: false is its default, auto)"
              : ": modules for module_detail: true");
}

void read_names(const YAML::Node& root, Config& config, Problems& problems) {
  for (const auto& kv : root) {
    const std::string key = kv.first.Scalar();
    const auto& top = top_level_keys();
    if (std::find(top.begin(), top.end(), key) == top.end())
      problems.at(kv.first, "unknown key '" + key + "' (expected: " + known_keys({}, top) + ")");
  }
  if (const YAML::Node name = root["name"]) {
    if (!name.IsScalar() || name.Scalar().empty())
      problems.at(name, "name must be a non-empty string");
    else if (auto why = config_name_problem(name.Scalar()))
      problems.at(name, "name " + *why);
    else
      config.name = name.Scalar();
  }
  config.output = "results/" + config.name;
  if (root["output"]) {
    if (!root["output"].IsScalar() || root["output"].Scalar().empty())
      problems.at(root["output"], "output must be a file path");
    else if (auto why = output_problem(root["output"].Scalar()))
      problems.at(root["output"], "output " + *why);
    else
      config.output = root["output"].Scalar();
  }
}

// workload: one map, or a list of maps (one config covering several workloads).
void read_workloads(const YAML::Node& root, ConfigSections& sections, Problems& problems) {
  auto read_one = [&](const YAML::Node& wl) {
    if (!wl.IsMap()) {
      problems.at(wl, "workload must be a map with a 'kind' (or a list of such maps)");
      return;
    }
    if (!wl["kind"]) {
      problems.at(wl, "workload: missing required key 'kind'");
      return;
    }
    const std::string kind = wl["kind"].IsScalar() ? wl["kind"].Scalar() : "";
    const WorkloadInfo* info = find_workload_kind(kind);
    if (!info) {
      std::string known;
      for (const auto* w : workload_kinds()) known += (known.empty() ? "" : ", ") + w->name;
      problems.at(wl["kind"], "unknown workload '" + kind + "' (known: " + known + ")");
      return;
    }
    sections.workloads.push_back(
        {info, wl, read_section(wl, "workload", info->params, {"kind"}, problems)});
  };
  const YAML::Node wl_root = root["workload"];
  if (!wl_root) {
    problems.at(root, "missing required key 'workload'");
  } else if (wl_root.IsSequence()) {
    if (wl_root.size() == 0) problems.at(wl_root, "workload: the list is empty");
    for (const auto& wl : wl_root) read_one(wl);
  } else {
    read_one(wl_root);
  }
}

// `repetitions: auto` is a race of at most 20 rounds (issue 46: verdicts that settle).
void expand_auto_repetitions(YAML::Node execution) {
  const YAML::Node given = execution["repetitions"];
  if (!given || !given.IsScalar() || given.Scalar() != "auto") return;
  execution["repetitions"] = kAutoRounds;
  if (!execution["race"]) execution["race"] = true;
}

std::vector<Axis> read_keyed_section(const YAML::Node& root, const char* name,
                                     std::span<const ParamSpec> specs, bool needed,
                                     Problems& problems) {
  const YAML::Node n = root[name];
  if (!n) {
    if (needed) problems.at(root, std::string("missing required key '") + name + "'");
    return {};
  }
  if (!n.IsMap()) {
    problems.at(n, std::string(name) + " must be a map");
    return {};
  }
  if (std::string(name) == "execution") expand_auto_repetitions(n);
  return read_section(n, name, specs, {}, problems);
}

void read_balancers(const YAML::Node& root, ConfigSections& sections, Problems& problems) {
  const YAML::Node list = root["balancers"];
  if (!list) {
    problems.at(root, "missing required key 'balancers'");
  } else if (!list.IsSequence() || list.size() == 0) {
    problems.at(list, "balancers must be a non-empty list, e.g. [ { static: block } ]");
  } else {
    for (const auto& e : list)
      if (auto entry = read_balancer(e, problems)) sections.balancers.push_back(std::move(*entry));
  }
  // Two entries of one label were two rows of the table no reader could tell apart.
  std::map<std::string, const BalancerEntry*> first;
  for (const BalancerEntry& e : sections.balancers)
    if (const auto [it, fresh] = first.emplace(e.label, &e); !fresh)
      problems.at(e.node["label"] ? e.node["label"] : e.node,
                  "a second balancers entry labelled '" + e.label + "' (the first is at " +
                      problems.where(it->second->node) + "): give each entry its own label:");
}

}  // namespace

Config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  Config config = load_config_text(read_config_text(path), path, overrides);
  if (process_world().leader())  // under mpirun every rank reads the config
    for (const std::string& note : config.deprecated) std::cerr << "lbbench: " << note << "\n";
  return config;
}

Config load_config_text(const std::string& text, const std::string& path,
                        const std::vector<std::string>& overrides) {
  YAML::Node root = parse_strict_yaml(text, path, true);
  Problems problems(path);
  if (!root.IsMap()) {
    problems.at(root, "a config must be a map with workload, platform, execution, balancers");
    throw ConfigError(problems.text());
  }
  if (root["balance_cases"]) {  // Horton 1993's setting: computed by `lbbench expect`
    problems.at(root["balance_cases"],
                "a balance experiment (balance_cases:) is not run: `lbbench expect " + path +
                    "` computes its cases beside the paper's numbers");
    throw ConfigError(problems.text());
  }
  apply_overrides(root, overrides, problems);

  Config config;
  config.deprecated = rename_old_keys(root, problems);
  if (std::optional<std::string> note = alias_module_detail(root, problems))
    config.deprecated.push_back(*note);
  config.path = path;
  config.name = std::filesystem::path(path).stem().string();
  read_names(root, config, problems);
  ConfigSections sections{root, {}, {}, {}, {}};
  read_workloads(root, sections, problems);
  sections.platform = read_keyed_section(root, "platform", platform_specs(), true, problems);
  sections.execution = read_keyed_section(root, "execution", execution_specs(), false, problems);
  read_balancers(root, sections, problems);
  config.expectations = read_expectations(root, problems);
  if (problems.any()) throw ConfigError(problems.text());

  // Refused before anything is allocated for the runs.
  if (const double n = configuration_count(sections); n > kMaxConfigurations) {
    std::ostringstream msg;
    msg << "the sweeps expand to " << n << " configurations; at most " << kMaxConfigurations
        << " (split the sweep into several configs)";
    problems.at(root, msg.str());
    throw ConfigError(problems.text());
  }
  expand_runs(sections, config, problems);
  if (problems.any()) throw ConfigError(problems.text());
  return config;
}

}  // namespace lbb
