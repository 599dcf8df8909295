#include "harness/config/sweep_expansion.h"

#include <map>
#include <tuple>

#include "balancers/balancer.h"
#include "harness/base/schedule.h"
#include "harness/config/config_keys.h"
#include "harness/config/memory_estimate.h"
#include "harness/config/processor_pattern.h"
#include "harness/config/resolved_yaml.h"
#include "harness/formats/assignment_file.h"
#include "harness/formats/trace_workload.h"
#include "harness/run/executor_registry.h"
#include "harness/sim/simulate_executor.h"

namespace lbb {

namespace {

// Calls f(choice) for every combination of axis values; choice[i] indexes axes[i]->values.
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

double combinations(const std::vector<Axis>& axes) {
  double n = 1;
  for (const auto& a : axes) n *= static_cast<double>(a.values.size());
  return n;
}

// "k=v k=v" for the axes with more than one value.
std::string swept(const std::vector<const Axis*>& axes, const std::vector<std::size_t>& choice) {
  std::string out;
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (axes[i]->values.size() > 1)
      out += (out.empty() ? "" : " ") + axes[i]->key + "=" + to_string(axes[i]->values[choice[i]]);
  return out;
}

// The node a chosen value came from, or `fallback` when the key was not given.
YAML::Node node_of(const std::vector<const Axis*>& axes, const std::vector<std::size_t>& choice,
                   const std::string& key, const YAML::Node& fallback) {
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (axes[i]->key == key) return axes[i]->nodes[choice[i]];
  return fallback;
}

// Axes in section order, each tagged with the Params it fills.
struct TaggedAxes {
  std::vector<const Axis*> axes;
  std::vector<Params*> target;
  void add(const std::vector<Axis>& from, Params* to) {
    for (const auto& a : from) {
      axes.push_back(&a);
      target.push_back(to);
    }
  }
  void fill(const std::vector<std::size_t>& choice) const {
    for (std::size_t i = 0; i < axes.size(); ++i)
      target[i]->set(axes[i]->key, axes[i]->values[choice[i]]);
  }
};

struct Expansion {
  const ConfigSections& sections;
  Config& config;
  Problems& problems;
  std::map<std::string, bool> balancer_ok;         // by name and parameters
  std::map<std::string, std::string> async_known;  // async_workload_problem by workload

  void workload(const WorkloadEntry& we);
  bool expand_patterns(const WorkloadEntry& we, const TaggedAxes& global,
                       const std::vector<std::size_t>& g, Params& platform);
  bool check_run(const WorkloadEntry& we, const TaggedAxes& global,
                 const std::vector<std::size_t>& g, RunSpec& base);
  void balancer_entry(const WorkloadEntry& we, const BalancerEntry& entry, const RunSpec& base);
  bool check_balancer(const std::string& name, BalancerKind kind, const Params& params,
                      const BalancerEntry& entry, const TaggedAxes& local,
                      const std::vector<std::size_t>& c);
};

void Expansion::workload(const WorkloadEntry& we) {
  Params wp, pp, ep;
  TaggedAxes global;
  global.add(we.axes, &wp);
  global.add(sections.platform, &pp);
  global.add(sections.execution, &ep);
  for_each_combination(global.axes, [&](const std::vector<std::size_t>& g) {
    wp = pp = ep = Params();
    global.fill(g);
    if (!expand_patterns(we, global, g, pp)) return;
    RunSpec base;
    base.name = config.name;
    base.workload = we.info->name;
    try {
      base.workload_params = resolve_params(we.info->params, wp);
    } catch (const ParamError& e) {
      problems.at(we.node, e.what());
      return;
    }
    apply_platform(resolve_platform(pp), base);
    apply_execution(resolve_params(execution_specs(), ep), base);
    if (!check_run(we, global, g, base)) return;
    base.sweep_label = swept(global.axes, g);
    for (const auto& entry : sections.balancers) balancer_entry(we, entry, base);
  });
}

// A per-processor pattern of the platform ("last:0.5") becomes the list for this point's
// processor count (a number key's stays text, checked here); false (a problem at the pattern)
// when it names more processors than there are.
bool Expansion::expand_patterns(const WorkloadEntry& we, const TaggedAxes& global,
                                const std::vector<std::size_t>& g, Params& platform) {
  for (std::size_t i = we.axes.size(); i < we.axes.size() + sections.platform.size(); ++i) {
    const Axis& axis = *global.axes[i];
    const auto* pattern = std::get_if<std::string>(&axis.values[g[i]]);
    const ParamSpec* spec = find_spec(platform_specs(), axis.key);
    const PerProcessor* key = spec ? per_processor(*spec) : nullptr;
    if (!pattern || !key) continue;
    try {
      const std::vector<double> values = expand_processor_pattern(
          *pattern, static_cast<int>(platform.integer("processors")), key->unnamed);
      if (spec->type == ParamType::kRealList) platform.set(axis.key, values);
    } catch (const std::invalid_argument& e) {
      problems.at(axis.nodes[g[i]], axis.key + " " + e.what());
      return false;
    }
  }
  return true;
}

// Why a balancer of the entry needs what the workload does not give, a communication graph or
// module coordinates ("" if none).
std::string requirement_problem(const BalancerChoice& b, const WorkloadInfo& workload,
                                const Params& workload_params) {
  for (const auto& [name, params, kind] :
       {std::tuple{&b.static_name, &b.static_params, BalancerKind::kStatic},
        {&b.dynamic_name, &b.dynamic_params, BalancerKind::kDynamic}}) {
    const BalancerInfo* info = find_balancer(*name, kind);
    if (!info) continue;
    if (info->needs_communication &&
        !(workload.communicates && workload.communicates(workload_params)))
      if (std::string why = info->needs_communication(*params); !why.empty()) return why;
    if (info->capabilities.needs_coordinates &&
        !(workload.has_coordinates && workload.has_coordinates(workload_params)))
      return info->name +
             " places modules by their coordinates, and this workload's modules have "
             "none";
  }
  return "";
}

// Why the run's asynchronous steps cannot run its workload ("" when they can, or the steps are
// bulk-synchronous): the run's own check, asked of the workload built once per parameter set.
std::string async_problem(const RunSpec& run, const ExecutorInfo& executor,
                          const WorkloadInfo& workload, std::map<std::string, std::string>& known) {
  try {
    if (!workload.make || !asynchronous_steps(executor, run)) return "";
    const auto [it, fresh] =
        known.emplace(workload.name + " " + run.workload_params.describe(), "");
    if (fresh) it->second = async_workload_problem(*workload.make(run.workload_params));
    return it->second;
  } catch (const std::exception&) {
    return "";  // reported where the entry's executor or the workload is checked
  }
}

// The checks that need a whole run; false when the workload's parameters are unusable.
bool Expansion::check_run(const WorkloadEntry& we, const TaggedAxes& global,
                          const std::vector<std::size_t>& g, RunSpec& base) {
  int modules = 0;
  try {
    modules = we.info->module_count(base.workload_params);
  } catch (const std::invalid_argument& e) {
    problems.at(we.node, e.what());
    return false;
  }
  if (auto err = memory_problem(*we.info, base.workload_params, base.processors)) {
    problems.at(we.node, *err);
    return false;
  }
  // Platform keys only: a workload may have a parameter of the same name.
  const std::vector<const Axis*> platform(global.axes.begin() + we.axes.size(),
                                          global.axes.end() - sections.execution.size());
  const std::vector<std::size_t> pg(g.begin() + we.axes.size(),
                                    g.end() - sections.execution.size());
  const YAML::Node section = sections.root["platform"];
  const YAML::Node where_p = node_of(platform, pg, "processors", section);
  if (base.processors > modules)
    problems.at(where_p, "processors (" + std::to_string(base.processors) +
                             ") exceeds the workload's " + std::to_string(modules) + " modules");
  if (!base.speeds.empty() && static_cast<int>(base.speeds.size()) != base.processors)
    problems.at(node_of(platform, pg, "speeds", where_p),
                "speeds has " + std::to_string(base.speeds.size()) + " values for " +
                    std::to_string(base.processors) + " processors");
  const std::size_t pool = base.platform_params.reals("speed_pool").size();
  if (pool > 0 && pool < static_cast<std::size_t>(base.processors))
    problems.at(node_of(platform, pg, "speed_pool", where_p),
                "speed_pool has " + std::to_string(pool) + " values for " +
                    std::to_string(base.processors) + " processors");
  if (pool > 0 && !base.platform_params.reals("speeds").empty())
    problems.at(node_of(platform, pg, "speed_pool", where_p),
                "give speeds or speed_pool, not both");
  if (auto err = topology_size_error(base.topology, base.processors))
    problems.at(node_of(platform, pg, "topology", where_p), *err);
  return true;
}

void Expansion::balancer_entry(const WorkloadEntry& we, const BalancerEntry& entry,
                               const RunSpec& base) {
  // Level workloads (tasks born every level) have no static partition.
  if ((we.info->make_levels || we.info->task_tree) && !entry.static_name.empty()) {
    problems.at(entry.node["static"], we.info->name +
                                          " creates its tasks level by level: there is no "
                                          "static partition (use dynamic: or schedule:)");
    return;
  }
  // The executor `execution.executor` names must run the entry ("auto" finds one that does).
  if (const ExecutorInfo* executor = find_executor(base.executor)) {
    RunSpec run = base;
    run.balancer.schedule_name = entry.schedule_name;
    const std::string why = executor_mismatch(*executor, run, workload_shape(*we.info));
    if (!why.empty()) {
      problems.at(entry.node, why);
      return;
    }
  }
  Params sp, dp, cp, op;
  TaggedAxes local;
  local.add(entry.static_axes, &sp);
  local.add(entry.dynamic_axes, &dp);
  local.add(entry.schedule_axes, &cp);
  local.add(entry.option_axes, &op);
  for_each_combination(local.axes, [&](const std::vector<std::size_t>& c) {
    sp = dp = cp = op = Params();
    local.fill(c);
    RunSpec run = base;
    BalancerChoice& b = run.balancer;
    b.static_name = entry.static_name;
    b.dynamic_name = entry.dynamic_name;
    b.schedule_name = entry.schedule_name;
    if (!check_balancer(b.static_name, BalancerKind::kStatic, sp, entry, local, c) ||
        !check_balancer(b.dynamic_name, BalancerKind::kDynamic, dp, entry, local, c))
      return;
    if (!b.static_name.empty())
      b.static_params =
          resolve_params(find_balancer(b.static_name, BalancerKind::kStatic)->params, sp);
    if (!b.dynamic_name.empty())
      b.dynamic_params =
          resolve_params(find_balancer(b.dynamic_name, BalancerKind::kDynamic)->params, dp);
    if (!b.schedule_name.empty()) {
      b.schedule_params = resolve_params(find_schedule(b.schedule_name)->params, cp);
      try {  // what a technique refuses as it is built (fiss's one stage, auto4omp's candidates)
        static_cast<void>(schedule_choice(b.schedule_name, b.schedule_params));
      } catch (const std::invalid_argument& e) {
        problems.at(entry.node, e.what());
        return;
      }
    }
    apply_options(op, b);
    if (const std::string why = requirement_problem(b, *we.info, run.workload_params);
        !why.empty()) {
      problems.at(entry.node, we.info->name + ": " + why);
      return;
    }
    if (b.static_name == "prescribed")  // an assignment read from a file, checked before any run
      if (const std::string why =
              assignment_problem(b.static_params.reals("owners"),
                                 we.info->module_count(run.workload_params), run.processors);
          !why.empty()) {
        problems.at(entry.node, why);
        return;
      }
    if (run.workload == "trace")  // a run longer than its trace, refused before any run
      if (const std::string why = trace_steps_problem(run.workload_params, run.warmup + run.steps);
          !why.empty()) {
        problems.at(entry.node, why);
        return;
      }
    const ExecutorInfo* executor = nullptr;  // chosen once here, kept in run.executor
    try {
      executor = &choose_executor(run, *we.info);
    } catch (const std::invalid_argument& e) {
      problems.at(entry.node, e.what());
      return;
    }
    if (executor->simulates)
      if (const std::string why = simulated_run_problem(run, *we.info); !why.empty()) {
        problems.at(entry.node, why);
        return;
      }
    if (const std::string why = async_problem(run, *executor, *we.info, async_known);
        !why.empty()) {
      problems.at(entry.node, we.info->name + ": " + why);
      return;
    }
    b.label = entry.label;
    b.baseline = entry.baseline;
    if (const std::string sw = swept(local.axes, c); !sw.empty()) b.label += "(" + sw + ")";
    run.resolved_yaml = resolved_yaml(run, config.output);  // as configured: "auto" stays
    run.executor = executor->name;
    if (run.execution_params.text("record") == "auto") run.record = executor->record;
    config.runs.push_back(std::move(run));
  });
}

// Builds the balancer once per distinct parameter set, so the checks its constructor makes
// (a partitioner's name, parameters that constrain each other) fail here and not mid-run.
bool Expansion::check_balancer(const std::string& name, BalancerKind kind, const Params& params,
                               const BalancerEntry& entry, const TaggedAxes& local,
                               const std::vector<std::size_t>& c) {
  if (name.empty()) return true;
  const auto [known, fresh] = balancer_ok.emplace(
      (kind == BalancerKind::kStatic ? "static " : "dynamic ") + name + " " + params.describe(),
      false);
  if (!fresh) return known->second;
  try {
    make_balancer(name, kind, params);  // what it checks
    known->second = true;
  } catch (const ParamError& e) {
    problems.at(node_of(local.axes, c, e.param(), entry.node), e.what());
  } catch (const std::invalid_argument& e) {
    problems.at(entry.node, name + ": " + e.what());
  }
  return known->second;
}

}  // namespace

double configuration_count(const ConfigSections& sections) {
  double entries = 0;
  for (const auto& e : sections.balancers)
    entries += combinations(e.static_axes) * combinations(e.dynamic_axes) *
               combinations(e.schedule_axes) * combinations(e.option_axes);
  double total = 0;
  for (const auto& w : sections.workloads) total += combinations(w.axes);
  return total * combinations(sections.platform) * combinations(sections.execution) * entries;
}

void expand_runs(const ConfigSections& sections, Config& config, Problems& problems) {
  Expansion expansion{sections, config, problems, {}, {}};
  for (const auto& we : sections.workloads) expansion.workload(we);
}

}  // namespace lbb
