#include "harness/analysis/result_set.h"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
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
    // What a run writes (record; module_detail, its old form) is no part of what it measures.
    if (n["execution"])
      for (const char* key : {"repetitions", "equivalence", "race", "min_repetitions", "budget",
                              "budget_seconds", "record", "module_detail"})
        n["execution"].remove(key);
    YAML::Emitter out;
    out << n;
    k.match = out.c_str();
    return k;
  } catch (const YAML::Exception&) {
    return {resolved_yaml, false};
  }
}

Repetition repetition_of(const RunRecord& run, bool simulated, bool with_figures) {
  // A field without a value (a failed run's, or a set older than its column) counts as 0.
  const auto value = [](double v) { return std::isnan(v) ? 0.0 : v; };
  const auto count = [](std::int64_t v) { return v == -1 ? 0.0 : static_cast<double>(v); };
  Repetition r;
  r.round = round_id(run.invocation, run.host, static_cast<int>(count(run.repetition)));
  if (run.status != "complete") r.error = run.error.empty() ? "status " + run.status : run.error;
  // A simulated run has nothing to verify (no kernel ran): complete is all it can be.
  r.verified = run.status == "complete" && (run.verified == 1 || simulated);
  if (run.status == "failed" && run.error.empty()) r.error.clear();  // did not verify
  r.makespan = value(run.makespan_total);
  r.wall = value(run.wall_total);
  r.ideal = value(run.ideal_total);
  r.largest_module = std::max(0.0, value(run.largest_module_total));
  r.efficiency = value(run.efficiency);
  r.imbalance = value(run.imbalance);
  r.migrations = count(run.migrations_total);
  r.megabytes = count(run.bytes_moved_total) / 1e6;
  r.balance = value(run.balance_total);
  r.replayed_makespan = run.replayed_makespan_total;  // NaN: not replayed, or an older set
  if (with_figures)
    for (const RunFigure& f : run.figures) r.attributes.push_back({f.name, f.value});
  return r;
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
    // Shown with the workload's figures: a set read back shows none (they are its columns).
    config_for(out, index, o.spec, fields)
        .reps.push_back(repetition_of(o.record, o.record.simulated == 1, true));
  }
  return out;
}

bool simulated_run(const RunRecord& run) {
  if (run.simulated >= 0) return run.simulated == 1;
  const ExecutorInfo* info = find_executor(run.executor);
  return info && info->simulates;
}

std::vector<ConfigResult> results_from_set(const ResultReader& set, const Selection& sel,
                                           ReadCount* read) {
  const std::vector<RunRecord>& runs = set.runs();  // by invocation: the latest last
  const std::string wanted =
      sel.invocation == "latest" ? (runs.empty() ? "" : runs.back().invocation) : sel.invocation;
  std::set<std::string> invocations;
  std::map<std::string, double> load_at_start;
  for (const RunRecord& r : runs) {
    const double load = std::isnan(r.load_start) ? 0.0 : r.load_start;
    auto [it, fresh] = load_at_start.try_emplace(r.invocation, load);
    if (!fresh) it->second = std::min(it->second, load);
  }
  // An interrupted run is superseded by a run of its config and repetition that ended on its
  // own (run --resume runs it again, run_selection.cpp): it counts that one instead.
  auto attempt = [](const RunRecord& r) { return std::make_pair(r.config_yaml, r.repetition); };
  std::set<std::pair<std::string, std::int64_t>> ended_on_their_own;
  for (const RunRecord& info : runs)
    if (info.interrupted != 1) ended_on_their_own.insert(attempt(info));
  std::vector<ConfigResult> out;
  std::map<std::string, std::size_t> index;
  std::map<std::string, ConfigKey> parsed_configs;
  for (const RunRecord& run : runs) {
    if (run.interrupted == 1 && ended_on_their_own.count(attempt(run))) continue;
    if (!wanted.empty() && run.invocation != wanted) continue;
    if (!sel.selects(run.workload, run.balancer)) continue;
    invocations.insert(run.invocation);
    if (read) ++read->runs;
    ConfigResult fields;
    fields.workload = run.workload;
    fields.label = run.balancer;
    fields.sweep = run.sweep;
    fields.static_name = run.static_name;
    fields.dynamic_name = run.dynamic;
    fields.schedule_name = run.schedule;
    fields.processors = static_cast<int>(run.processors == -1 ? 0 : run.processors);
    // Repetitions share their resolved config: each distinct one is parsed once.
    auto [parsed, fresh] = parsed_configs.try_emplace(run.config_yaml);
    if (fresh) parsed->second = config_key(run.config_yaml);
    fields.match_key = parsed->second.match;
    fields.baseline = parsed->second.baseline;
    fields.measured_decisions = parsed->second.measured_decisions;
    fields.equivalence = parsed->second.equivalence;
    fields.looks = parsed->second.looks;
    fields.simulated = simulated_run(run);
    fields.available =
        static_cast<int>(run.available_processors == -1 ? 0 : run.available_processors);
    fields.load_average = std::max(0.0, load_at_start[run.invocation]);
    config_for(out, index, fields.match_key, fields)
        .reps.push_back(repetition_of(run, fields.simulated, false));
  }
  if (read) read->invocations = invocations.size();
  return out;
}

}  // namespace lbb
