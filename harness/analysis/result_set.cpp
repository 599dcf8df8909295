#include "harness/analysis/result_set.h"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

#include "harness/run/executor_registry.h"
#include "harness/stats/racing.h"

namespace lbb {

namespace {

// RE2: linear in the text whatever the pattern (std::regex backtracked exponentially).
bool searches(const std::string& pattern, const std::string& text) {
  thread_local std::map<std::string, std::unique_ptr<RE2>> compiled;  // once a pattern
  auto it = compiled.find(pattern);
  if (it == compiled.end()) {
    RE2::Options options;
    options.set_log_errors(false);
    it = compiled.emplace(pattern, std::make_unique<RE2>(pattern, options)).first;
    if (!it->second->ok()) throw std::invalid_argument("not a regular expression: " + pattern);
  }
  return RE2::PartialMatch(text, *it->second);
}

// Appends the repetition to the configuration with its key, creating it in first-seen order.
template <typename Key>
ConfigResult& config_for(std::vector<ConfigResult>& out, std::map<Key, std::size_t>& index,
                         const Key& key, const ConfigResult& fields) {
  auto [it, fresh] = index.try_emplace(key, out.size());
  if (fresh) out.push_back(fields);
  return out[it->second];
}

// A round is one repetition of one invocation on one host: live runs and runs read back of the
// same invocation get the same id, so a resumed or racing set pairs what ran together.
long round_id(const std::string& invocation, const std::string& host, int repetition) {
  const std::size_t h =
      std::hash<std::string>{}(invocation + "|" + host + "|" + std::to_string(repetition));
  return static_cast<long>(h & 0x3fffffffffffffffULL);  // non-negative: -1 is "unknown"
}

}  // namespace

bool Selection::selects(const std::string& workload, const std::string& label) const {
  if (!only.empty() && !searches(only, workload) && !searches(only, label)) return false;
  if (!exclude.empty() && (searches(exclude, workload) || searches(exclude, label))) return false;
  return true;
}

int planned_looks(const RunSpec& spec) {
  if (!spec.race.on) return 1;
  return static_cast<int>(stats::look_rounds(spec.race.first_look, spec.repetitions).size());
}

ConfigKey config_key(const std::string& resolved_yaml) {
  try {
    YAML::Node n = YAML::Load(resolved_yaml);  // once: a large set's time goes in parsing
    ConfigKey k;
    try {
      const YAML::Node b = std::as_const(n)["balancers"][0]["baseline"];  // const: adds nothing
      k.baseline = b && b.as<bool>();
    } catch (const YAML::Exception&) {
      // Not a baseline; the key stands.
    }
    const YAML::Node execution = std::as_const(n)["execution"];
    try {
      if (execution && execution["sim_decision"])
        k.measured_decisions = execution["sim_decision"].as<std::string>() != "modelled";
      if (execution && execution["equivalence"])
        k.equivalence = execution["equivalence"].as<double>();
      if (execution && execution["race"] && execution["race"].as<bool>())
        k.looks = static_cast<int>(stats::look_rounds(execution["min_repetitions"].as<int>(4),
                                                      execution["repetitions"].as<int>(1))
                                       .size());
    } catch (const YAML::Exception&) {
      // The defaults stand.
    }
    n.remove("name");
    n.remove("output");
    if (n["execution"])
      for (const char* key :
           {"repetitions", "equivalence", "race", "min_repetitions", "budget", "budget_seconds"})
        n["execution"].remove(key);
    YAML::Emitter out;
    out << n;
    k.match = out.c_str();
    return k;
  } catch (const YAML::Exception&) {
    return {resolved_yaml, false};
  }
}

std::vector<ConfigResult> results_from_outcomes(const std::vector<RunOutcome>& outcomes,
                                                const Provenance& prov, double load_at_start) {
  std::vector<ConfigResult> out;
  std::map<const RunSpec*, std::size_t> index;  // a live run's configurations are its specs
  for (const RunOutcome& o : outcomes) {
    const RunSpec& s = *o.spec;
    ConfigResult fields;
    fields.workload = s.workload;
    fields.label = s.balancer.label;
    fields.sweep = s.sweep_label;
    fields.static_name = s.balancer.static_name;
    fields.dynamic_name = s.balancer.dynamic_name;
    fields.schedule_name = s.balancer.schedule_name;
    fields.processors = s.processors;
    fields.baseline = s.balancer.baseline;
    fields.simulated = runs_simulated(s);
    fields.measured_decisions = s.sim.measured_decisions;
    fields.equivalence = s.equivalence;
    fields.looks = planned_looks(s);
    fields.available = prov.available;
    fields.load_average = load_at_start;
    Repetition r;
    r.error = o.error;
    r.verified = o.error.empty() && o.verification.passed;
    r.round = round_id(prov.invocation, prov.host, o.repetition);
    const RunSummary& m = o.summary;
    r.makespan = m.makespan;
    r.wall = m.wall;
    r.ideal = m.ideal;
    r.largest_module = m.largest_module;
    r.efficiency = m.efficiency();
    r.imbalance = m.imbalance;
    r.migrations = static_cast<double>(m.migrations);
    r.megabytes = static_cast<double>(m.bytes_moved) / 1e6;
    r.balance = m.balance;
    r.replayed_makespan = m.replayed_makespan;
    for (const auto& a : o.attributes) r.attributes.push_back({a.name, a.value});
    config_for(out, index, o.spec, fields).reps.push_back(std::move(r));
  }
  return out;
}

bool simulated_run(const RunInfo& run) {
  if (auto it = run.number.find("simulated"); it != run.number.end() && it->second >= 0)
    return it->second == 1;
  const auto executor = run.text.find("executor");
  const ExecutorInfo* info = executor == run.text.end() ? nullptr : find_executor(executor->second);
  return info && info->simulates;
}

std::vector<ConfigResult> results_from_set(const ResultReader& set, const Selection& sel,
                                           ReadCount* read) {
  const std::vector<RunInfo>& runs = set.runs();  // by invocation: the latest last
  auto text = [](const RunInfo& r, const char* k) {
    auto it = r.text.find(k);
    return it == r.text.end() ? std::string() : it->second;
  };
  auto number = [](const RunInfo& r, const char* k) {
    auto it = r.number.find(k);
    return it == r.number.end() ? 0.0 : it->second;
  };
  const std::string wanted = sel.invocation == "latest"
                                 ? (runs.empty() ? "" : text(runs.back(), "invocation"))
                                 : sel.invocation;
  std::set<std::string> invocations;
  std::map<std::string, double> load_at_start;
  for (const RunInfo& r : runs) {
    auto [it, fresh] = load_at_start.try_emplace(text(r, "invocation"), number(r, "load_start"));
    if (!fresh) it->second = std::min(it->second, number(r, "load_start"));
  }
  // An interrupted run is superseded by a run of its config and repetition that ended on its
  // own (run --resume runs it again, run_selection.cpp): it counts that one instead.
  auto attempt = [&](const RunInfo& r) {
    return std::make_pair(text(r, "config_yaml"), number(r, "repetition"));
  };
  auto stopped = [](const RunInfo& r) {
    auto it = r.number.find("interrupted");
    return it != r.number.end() && it->second == 1;
  };
  std::set<std::pair<std::string, double>> ended_on_their_own;
  for (const RunInfo& r : runs)
    if (!stopped(r)) ended_on_their_own.insert(attempt(r));
  std::vector<ConfigResult> out;
  std::map<std::string, std::size_t> index;
  std::map<std::string, ConfigKey> parsed_configs;
  for (const RunInfo& info : runs) {
    if (stopped(info) && ended_on_their_own.count(attempt(info))) continue;
    if (!wanted.empty() && text(info, "invocation") != wanted) continue;
    if (!sel.selects(text(info, "workload"), text(info, "balancer"))) continue;
    invocations.insert(text(info, "invocation"));
    if (read) ++read->runs;
    ConfigResult fields;
    fields.workload = text(info, "workload");
    fields.label = text(info, "balancer");
    fields.sweep = text(info, "sweep");
    fields.static_name = text(info, "static");
    fields.dynamic_name = text(info, "dynamic");
    fields.schedule_name = text(info, "schedule");
    fields.processors = static_cast<int>(number(info, "processors"));
    // Repetitions share their resolved config: each distinct one is parsed once.
    const std::string yaml = text(info, "config_yaml");
    auto [parsed, fresh] = parsed_configs.try_emplace(yaml);
    if (fresh) parsed->second = config_key(yaml);
    fields.match_key = parsed->second.match;
    fields.baseline = parsed->second.baseline;
    fields.measured_decisions = parsed->second.measured_decisions;
    fields.equivalence = parsed->second.equivalence;
    fields.looks = parsed->second.looks;
    fields.simulated = simulated_run(info);
    fields.available = static_cast<int>(number(info, "available_processors"));
    fields.load_average = std::max(0.0, load_at_start[text(info, "invocation")]);
    Repetition r;
    r.round = round_id(text(info, "invocation"), text(info, "host"),
                       static_cast<int>(number(info, "repetition")));
    const std::string status = text(info, "status");
    if (status != "complete")
      r.error = text(info, "error").empty() ? "status " + status : text(info, "error");
    // A simulated run has nothing to verify (no kernel ran): complete is all it can be.
    r.verified = status == "complete" && (number(info, "verified") == 1 || fields.simulated);
    if (status == "failed" && text(info, "error").empty()) r.error.clear();  // did not verify
    r.makespan = number(info, "makespan_total");
    r.wall = number(info, "wall_total");
    r.ideal = number(info, "ideal_total");
    r.largest_module = std::max(0.0, number(info, "largest_module_total"));  // NaN: older sets
    r.efficiency = number(info, "efficiency");
    r.imbalance = number(info, "imbalance");
    r.migrations = number(info, "migrations_total");
    r.megabytes = number(info, "bytes_moved_total") / 1e6;
    r.balance = number(info, "balance_total");
    if (auto it = info.number.find("replayed_makespan_total"); it != info.number.end())
      r.replayed_makespan = it->second;  // absent: not replayed, or a set older than the column
    config_for(out, index, fields.match_key, fields).reps.push_back(std::move(r));
  }
  if (read) read->invocations = invocations.size();
  return out;
}

}  // namespace lbb
