#include "harness/analysis/timeline.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include "harness/analysis/run_trace.h"
#include "harness/base/record_level.h"
#include "harness/base/timeline_span.h"

namespace lbb {

namespace {

using json = nlohmann::json;

// Trace events count microseconds: integer ones, floored from nanoseconds (never overlapping).
std::int64_t micros(std::int64_t ns) {
  return ns >= 0 ? ns / 1000 : -((-ns + 999) / 1000);
}
std::int64_t nanos(double seconds) {
  return std::isfinite(seconds) && seconds > 0 ? std::llround(seconds * 1e9) : 0;
}

double at(const std::vector<double>& series, std::size_t k) {
  return k < series.size() && std::isfinite(series[k]) ? series[k] : 0.0;
}

// Processors per rank: the run's mpi_threads_per_rank, else all on rank 0.
int per_rank(const RunRecord& run, int processors) {
  const std::optional<double> given = run.figure("mpi_threads_per_rank");
  const int t = !given || !(*given >= 1) ? processors : static_cast<int>(*given);
  return std::max(t, 1);
}

// The tracks, named and in order: a process per rank, a thread per processor.
void name_tracks(int processors, int threads, json& events) {
  for (int r = 0; r * threads < processors; ++r) {
    events.push_back({{"ph", "M"},
                      {"name", "process_name"},
                      {"pid", r},
                      {"tid", r * threads},
                      {"args", {{"name", "rank " + std::to_string(r)}}}});
    events.push_back({{"ph", "M"},
                      {"name", "process_sort_index"},
                      {"pid", r},
                      {"tid", r * threads},
                      {"args", {{"sort_index", r}}}});
  }
  for (int p = 0; p < processors; ++p) {
    const int pid = p / threads;
    events.push_back({{"ph", "M"},
                      {"name", "thread_name"},
                      {"pid", pid},
                      {"tid", p},
                      {"args", {{"name", "processor " + std::to_string(p)}}}});
    events.push_back({{"ph", "M"},
                      {"name", "thread_sort_index"},
                      {"pid", pid},
                      {"tid", p},
                      {"args", {{"sort_index", p}}}});
  }
}

json slice(const std::string& name, const char* cat, int pid, int tid, std::int64_t start_ns,
           std::int64_t end_ns, json args) {
  const std::int64_t ts = micros(start_ns);
  return {{"ph", "X"},
          {"name", name},
          {"cat", cat},
          {"pid", pid},
          {"tid", tid},
          {"ts", ts},
          {"dur", std::max<std::int64_t>(micros(end_ns) - ts, 0)},
          {"args", std::move(args)}};
}

std::int64_t column_int(const ColumnTable& t, const char* name, std::size_t row) {
  const Column* c = t.find(name);
  if (!c || c->type == ColumnType::kText || c->type == ColumnType::kFloat64 || row >= c->rows())
    throw TraceError(std::string("spans table: no integer column ") + name);
  return c->ints[row];
}

// The measured spans of the run: every slice as recorded.
void measured_slices(const ColumnTable& spans, const RunRecord& run, json& events) {
  const Column* kind = spans.find("kind");
  if (!kind || kind->type != ColumnType::kText || kind->text.size() != spans.rows())
    throw TraceError("run " + run.run + ": spans table: no text column kind");
  int processors = run.processors == -1 ? 1 : static_cast<int>(run.processors);
  for (std::size_t r = 0; r < spans.rows(); ++r)
    processors = std::max(processors, static_cast<int>(column_int(spans, "proc", r)) + 1);
  const int threads = per_rank(run, processors);
  name_tracks(processors, threads, events);
  for (std::size_t r = 0; r < spans.rows(); ++r) {
    const std::string& k = kind->text[r];
    const std::int64_t module = column_int(spans, "module", r);
    const int proc = static_cast<int>(column_int(spans, "proc", r));
    json args = {{"step", column_int(spans, "step", r)}, {"phase", column_int(spans, "phase", r)}};
    if (module >= 0) args["module"] = module;
    const std::string name = k == "module" ? "module " + std::to_string(module) : k;
    const auto known = parse_span_kind(k);
    events.push_back(slice(name, known ? kSpanKindNames[static_cast<int>(*known)].data() : "other",
                           static_cast<int>(column_int(spans, "rank", r)), proc,
                           column_int(spans, "start", r), column_int(spans, "end", r),
                           std::move(args)));
  }
}

// Trace step k (a phase of a run's step) from `start` ns; returns its end, its slowest
// processor's: integer nanoseconds, so that a slice ends exactly where the next begins.
std::int64_t phase_spans(const Trace& t, int k, std::int64_t start, int threads, json& events) {
  std::vector<std::int64_t> clock(t.ranks, start);
  for (int m = 0; m < t.modules; ++m) {
    const std::size_t cell = static_cast<std::size_t>(k) * t.modules + m;
    const int p = t.owner[cell];
    const std::int64_t end = clock[p] + nanos(t.cost[cell]);
    events.push_back(
        slice("module " + std::to_string(m), "module", p / threads, p, clock[p], end,
              {{"step", k / t.phases_per_step}, {"phase", k % t.phases_per_step}, {"module", m}}));
    clock[p] = end;
  }
  return *std::max_element(clock.begin(), clock.end());
}

// Modules whose owner in trace step k + F (the same phase a step later) is another.
void migration_instants(const Trace& t, int k, std::int64_t when, int threads, json& events) {
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
                        {"pid", to / threads},
                        {"tid", to},
                        {"ts", micros(when)},
                        {"args", {{"module", m}, {"from", from}, {"to", to}}}});
  }
}

// The modelled timeline from the recorded module costs.
void modelled_slices(const ResultReader& set, const RunRecord& run, json& events) {
  const Trace t = trace_of_run(set, run);
  const int threads = per_rank(run, t.ranks);
  const auto series = [&](const char* name) { return set.read_series(run.run, name); };
  const std::vector<double> serial = series("step/serial"), balance = series("step/balance"),
                            moved = series("step/migrations"),
                            before = series("step/predicted_before"),
                            after = series("step/predicted_after");
  name_tracks(t.ranks, threads, events);
  std::int64_t clock = 0;
  for (int k = 0; k < t.steps; ++k) {
    clock = phase_spans(t, k, clock, threads, events);
    if ((k + 1) % t.phases_per_step != 0) continue;
    const std::size_t s = static_cast<std::size_t>(k / t.phases_per_step);
    clock += nanos(at(serial, s));
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
                      {"ts", micros(clock)},
                      {"args", std::move(args)}});
    clock += nanos(at(balance, s));
    for (int f = 0; f < t.phases_per_step; ++f)
      migration_instants(t, k - t.phases_per_step + 1 + f, clock, threads, events);
  }
}

bool records_timeline(const RunRecord& run) {
  return run.config_yaml.find("timeline: true") != std::string::npos;
}

}  // namespace

std::vector<const RunRecord*> runs_with_timeline(const ResultReader& set, const std::string& only) {
  std::vector<const RunRecord*> runs;
  for (const RunRecord& run : set.runs()) {
    if (!only.empty() && run.run != only) continue;
    if (only.empty() && (run.status != "complete" ||
                         (!records_timeline(run) &&
                          (run.modules == -1 || recorded_level(run) != RecordLevel::kModules))))
      continue;
    runs.push_back(&run);
  }
  if (runs.empty())
    throw TraceError(only.empty() ? "no complete run recorded with execution.timeline: true or "
                                    "execution.record: modules in the set"
                                  : "no run " + only + " in the set");
  return runs;
}

std::string chrome_timeline(const ResultReader& set, const RunRecord& run) {
  const ColumnTable spans = set.run_rows(run.run, TableId::kSpans);
  const bool measured_here = spans.rows() > 0;
  json events = json::array();
  if (measured_here)
    measured_slices(spans, run, events);
  else
    modelled_slices(set, run, events);
  json other = {{"run", run.run}, {"times", measured_here ? "measured" : "modelled"}};
  other["how"] =
      measured_here
          ? "measured (execution.timeline): each slice's wall-clock start and end on the run's "
            "monotonic clock from its start (across MPI ranks rank 0's), floored to microseconds"
          : "modelled from the recorded module costs: modules of a phase back to back in module "
            "order on their owner (the run recorded no timeline: execution.timeline: true "
            "measures one)";
  const json out = {{"traceEvents", std::move(events)},
                    {"displayTimeUnit", "ms"},
                    {"otherData", std::move(other)}};
  return out.dump() + "\n";
}

}  // namespace lbb
