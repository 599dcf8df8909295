#include "harness/analysis/timeline.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "harness/analysis/run_trace.h"

namespace lbb {

namespace {

using json = nlohmann::json;

constexpr double kMicro = 1e6;  // trace events count microseconds

double at(const std::vector<double>& series, std::size_t k) {
  return k < series.size() && std::isfinite(series[k]) ? series[k] : 0.0;
}

// Processor tracks named, in order.
void name_tracks(const Trace& t, json& events) {
  events.push_back({{"ph", "M"},
                    {"name", "process_name"},
                    {"pid", 0},
                    {"tid", 0},
                    {"args", {{"name", "lbbench run"}}}});
  for (int p = 0; p < t.ranks; ++p) {
    events.push_back({{"ph", "M"},
                      {"name", "thread_name"},
                      {"pid", 0},
                      {"tid", p},
                      {"args", {{"name", "processor " + std::to_string(p)}}}});
    events.push_back({{"ph", "M"},
                      {"name", "thread_sort_index"},
                      {"pid", 0},
                      {"tid", p},
                      {"args", {{"sort_index", p}}}});
  }
}

// Trace step k (a phase of a run's step) from `start` s; returns its end, its slowest processor's.
double phase_spans(const Trace& t, int k, double start, json& events) {
  std::vector<double> clock(t.ranks, start);
  for (int m = 0; m < t.modules; ++m) {
    const std::size_t cell = static_cast<std::size_t>(k) * t.modules + m;
    const int p = t.owner[cell];
    events.push_back(
        {{"ph", "X"},
         {"name", "module " + std::to_string(m)},
         {"cat", "module"},
         {"pid", 0},
         {"tid", p},
         {"ts", clock[p] * kMicro},
         {"dur", t.cost[cell] * kMicro},
         {"args", {{"step", k / t.phases_per_step}, {"phase", k % t.phases_per_step}}}});
    clock[p] += t.cost[cell];
  }
  return *std::max_element(clock.begin(), clock.end());
}

// Modules whose owner in trace step k + F (the same phase a step later) is another.
void migrations(const Trace& t, int k, double when, json& events) {
  const int next = k + t.phases_per_step;
  if (next >= t.steps) return;
  for (int m = 0; m < t.modules; ++m) {
    const int from = t.owner[static_cast<std::size_t>(k) * t.modules + m];
    const int to = t.owner[static_cast<std::size_t>(next) * t.modules + m];
    if (from != to)
      events.push_back({{"ph", "i"},
                        {"s", "t"},
                        {"name", "migrate module " + std::to_string(m)},
                        {"cat", "migration"},
                        {"pid", 0},
                        {"tid", to},
                        {"ts", when * kMicro},
                        {"args", {{"module", m}, {"from", from}, {"to", to}}}});
  }
}

}  // namespace

std::string chrome_timeline(const ResultReader& set, const RunInfo& run) {
  const Trace t = trace_of_run(set, run);
  const auto series = [&](const char* name) { return set.read_series(run.id, name); };
  const std::vector<double> serial = series("step/serial"), balance = series("step/balance"),
                            moved = series("step/migrations"),
                            before = series("step/predicted_before"),
                            after = series("step/predicted_after");
  json events = json::array();
  name_tracks(t, events);
  double clock = 0;
  for (int k = 0; k < t.steps; ++k) {
    clock = phase_spans(t, k, clock, events);
    if ((k + 1) % t.phases_per_step != 0) continue;
    const std::size_t s = static_cast<std::size_t>(k / t.phases_per_step);
    clock += at(serial, s);
    json args = {{"step", s},
                 {"decision_seconds", at(balance, s)},
                 {"migrations", static_cast<std::int64_t>(at(moved, s))}};
    if (s < before.size() && std::isfinite(before[s])) args["predicted_before"] = before[s];
    if (s < after.size() && std::isfinite(after[s])) args["predicted_after"] = after[s];
    events.push_back({{"ph", "i"},
                      {"s", "g"},
                      {"name", "balancer decision"},
                      {"cat", "balancer"},
                      {"pid", 0},
                      {"tid", 0},
                      {"ts", clock * kMicro},
                      {"args", std::move(args)}});
    clock += at(balance, s);
    for (int f = 0; f < t.phases_per_step; ++f)
      migrations(t, k - t.phases_per_step + 1 + f, clock, events);
  }
  const json out = {
      {"traceEvents", std::move(events)},
      {"displayTimeUnit", "ms"},
      {"otherData",
       {{"run", run.id},
        {"times",
         "modelled from the recorded module costs: modules of a phase back to back in "
         "module order on their owner"}}}};
  return out.dump() + "\n";
}

}  // namespace lbb
