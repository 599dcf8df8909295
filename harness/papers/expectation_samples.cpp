#include "harness/papers/expectation_samples.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <set>
#include <sstream>

#include "core/text.h"
#include "harness/results/result_schema.h"
#include "harness/run/executor_registry.h"

namespace lbb {
namespace {

bool same_value(const std::string& a, const std::string& b) {
  const auto x = parse_number(a), y = parse_number(b);
  if (x && y) return std::abs(*x - *y) <= 1e-9 * std::max(1.0, std::abs(*y));
  return a == b;
}

// The tokens "k=v" of a sweep text "k1=v1 k2=v2", or of a label's parameters "(k1=v1,k2=v2)".
std::vector<std::string> tokens(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string t; std::getline(in, t, separator);)
    if (!t.empty()) out.push_back(t);
  return out;
}

std::vector<std::string> label_parameters(const RunRecord& run) {
  std::vector<std::string> out;
  const std::string& label = run.balancer;
  for (std::size_t open = label.find('('); open != std::string::npos;
       open = label.find('(', open + 1)) {
    const std::size_t close = label.find(')', open);
    if (close == std::string::npos) break;
    for (std::string& t : tokens(label.substr(open + 1, close - open - 1), ','))
      out.push_back(std::move(t));
  }
  return out;
}

std::optional<std::string> value_in(const std::vector<std::string>& kv, const std::string& key) {
  for (const std::string& t : kv)
    if (t.rfind(key + "=", 0) == 0) return t.substr(key.size() + 1);
  return std::nullopt;
}

bool matches_one(const RunRecord& run, const std::string& key, const std::string& value) {
  if (auto t = run_text(run, key)) return same_value(*t, value);
  if (auto n = run_number(run, key)) {
    const auto v = parse_number(value);
    return v && std::abs(*n - *v) <= 1e-9 * std::max(1.0, std::abs(*v));
  }
  const auto v = value_in(tokens(run.sweep, ' '), key);
  return v && same_value(*v, value);
}

// The run's trial: its swept values but the row's keys and its balancer's own parameters
// (which tell strategies apart, not trials).
std::string trial_of(const RunRecord& run, const Selector& where, const std::string& over) {
  const std::vector<std::string> own = label_parameters(run);
  std::string out;
  for (const std::string& t : tokens(run.sweep, ' ')) {
    const std::string key = t.substr(0, t.find('='));
    const bool selected = key == over || std::any_of(where.begin(), where.end(),
                                                     [&](auto& kv) { return kv.first == key; });
    if (selected || std::find(own.begin(), own.end(), t) != own.end()) continue;
    out += (out.empty() ? "" : " ") + t;
  }
  return out;
}

// A round, as the comparison table's (harness/analysis/result_set.cpp): one repetition of one
// invocation on one host.
std::string round_of(const RunRecord& run) {
  return run.invocation + "|" + run.host + "|" +
         (run.repetition == -1 ? "" : format_number(static_cast<double>(run.repetition), 6));
}

long pairing_id(const std::string& trial, const std::string& round) {
  const std::size_t h = std::hash<std::string>{}(trial + "#" + round);
  return static_cast<long>(h & 0x3fffffffffffffffULL);  // non-negative: -1 is "unknown"
}

RunFacts facts_of_config(const std::string& yaml) {
  RunFacts f;
  try {
    const YAML::Node execution = YAML::Load(yaml)["execution"];
    f.measured_decisions =
        !execution["sim_decision"] || execution["sim_decision"].as<std::string>() != "modelled";
    // replay_archive: the key's name in sets written before it was replay_set.
    for (const char* key : {"replay_set", "replay_archive"})
      if (execution[key] && f.recording.empty()) f.recording = execution[key].as<std::string>();
  } catch (const YAML::Exception&) {
    f.measured_decisions = true;  // unreadable: assume the value may move
  }
  return f;
}

}  // namespace

std::optional<double> parse_number(const std::string& s) {
  double x = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return x;
}

long run_round(const RunRecord& run) {
  return pairing_id("", round_of(run));
}

RunFactsMap run_facts(const std::vector<RunRecord>& runs) {
  RunFactsMap out;
  std::map<std::string, RunFacts> by_config;  // repetitions and rows share their configs
  for (const RunRecord& r : runs) {
    const ExecutorInfo* executor = find_executor(r.executor);
    RunFacts f;
    f.simulated = executor && executor->simulates;
    if (f.simulated) {
      const std::string& yaml = r.config_yaml;
      auto [it, fresh] = by_config.try_emplace(yaml);
      if (fresh) it->second = facts_of_config(yaml);
      f.measured_decisions = it->second.measured_decisions;
      f.recording = it->second.recording;
    }
    out.emplace(&r, f);
  }
  return out;
}

bool run_matches(const RunRecord& run, const Selector& where) {
  return std::all_of(where.begin(), where.end(),
                     [&](const auto& kv) { return matches_one(run, kv.first, kv.second); });
}

std::vector<const RunRecord*> select_runs(const std::vector<RunRecord>& runs,
                                          const Selector& where) {
  std::vector<const RunRecord*> out;
  for (const RunRecord& r : runs)
    if (r.status == "complete" && run_matches(r, where)) out.push_back(&r);
  return out;
}

std::optional<std::string> run_value(const RunRecord& run, const std::string& key) {
  if (auto t = run_text(run, key)) return t;
  if (auto n = run_number(run, key)) return format_number(*n, 9);
  if (auto v = value_in(tokens(run.sweep, ' '), key)) return v;
  return value_in(label_parameters(run), key);
}

KeyedSample keyed_sample(const std::vector<const RunRecord*>& runs, const std::string& metric,
                         const Selector& where, const RunFactsMap& facts, const std::string& over) {
  KeyedSample out;
  bool simulated = !runs.empty();
  double share = 0;  // the largest share of a run's time its measured decisions took
  std::set<std::string> recordings;
  for (const RunRecord* r : runs) {
    const std::optional<double> value = run_number(*r, metric);
    if (!value || !std::isfinite(*value)) continue;
    const std::string trial = trial_of(*r, where, over);
    out.sample.values.push_back(*value);
    out.sample.rounds.push_back(pairing_id(trial, round_of(*r)));
    out.trials.push_back(trial);
    const auto f = facts.find(r);
    const RunFacts fact = f == facts.end() ? RunFacts{} : f->second;
    simulated &= fact.simulated;
    recordings.insert(fact.recording);
    if (fact.measured_decisions) {
      const double balance = r->balance_total, time = r->makespan_total;
      const bool known = !std::isnan(balance) && time > 0;
      share = known ? std::max(share, balance / time) : HUGE_VAL;
    }
  }
  out.sample.deterministic = simulated && std::isfinite(share);
  out.relative_uncertainty = out.sample.deterministic ? share : 0;
  double largest = 0;
  for (double v : out.sample.values) largest = std::max(largest, std::abs(v));
  out.sample.uncertainty = out.relative_uncertainty * largest;
  if (recordings.size() == 1) out.recording = *recordings.begin();
  return out;
}

int distinct_trials(const std::vector<std::string>& trials) {
  return static_cast<int>(std::set<std::string>(trials.begin(), trials.end()).size());
}

}  // namespace lbb
