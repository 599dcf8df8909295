#pragma once
// A run's row of the runs table, as plain data: the runner fills it, the result writer stores it,
// the reader fills it back and the analysis table reads it (harness/analysis/result_set.h). The
// runs table (harness/results/result_schema.cpp) points each of its columns into it, as the steps
// columns point into StepRecord. A field left at its fill ("", -1, NaN) is a column the run has
// no value for.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lbb {

// A figure a workload, an executor or a balancer reports with a name of its own (columns of the
// runs table without a field here, float64).
struct RunFigure {
  std::string name;
  double value = 0;
  bool operator==(const RunFigure&) const = default;
};

struct RunRecord {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  std::string run;  // the run's id, given by the result writer
  // What ran
  std::string name, workload, balancer, static_name, dynamic, schedule, sweep, mode, executor,
      topology, speeds, external_load_max, config_yaml, record;
  std::string plugin_library, plugin_sha256;  // `dynamic: plugin`: which strategy exactly
  // A between-step balancer's entry options: its period and load model (harness/base/load_model.h)
  std::int64_t balance_every = -1, load_model_window = -1;
  std::string load_model;
  std::int64_t processors = -1, modules = -1, steps = -1, warmup = -1, repetition = -1;
  // Where and by what it ran
  std::string invocation, run_uuid, git_sha, compiler, flags, host, cpu_model, omp_env,
      hdf5_version, openblas, ranks;
  std::int64_t cores = -1, hardware_threads = -1, available_processors = -1, oversubscribed = -1,
               simulated = -1;
  std::string started, finished;
  double load_start = kNone, load_end = kNone;
  // Its whole-run figures
  double makespan_total = kNone, wall_total = kNone, ideal_total = kNone,
         largest_module_total = kNone, replayed_makespan_total = kNone, efficiency = kNone,
         imbalance = kNone, balance_total = kNone, initial_partition_seconds = kNone,
         results_seconds = kNone, run_wall = kNone;
  std::int64_t migrations_total = -1, bytes_moved_total = -1, tasks_total = -1, max_distance = -1;
  // How it ended
  std::string status, error, verification;
  std::int64_t verified = -1, interrupted = -1;
  double verification_error = kNone, verification_tolerance = kNone, checksum = kNone,
         reference_checksum = kNone;
  std::vector<RunFigure> figures;
  bool operator==(const RunRecord&) const = default;
  // The figure of that name (the last given counts), or none.
  std::optional<double> figure(std::string_view figure_name) const {
    for (auto f = figures.rbegin(); f != figures.rend(); ++f)
      if (f->name == figure_name) return f->value;
    return std::nullopt;
  }
};

}  // namespace lbb
