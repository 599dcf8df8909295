#include "harness/results/result_schema.h"

#include <nlohmann/json.hpp>

namespace lbb {

namespace {

using T = ColumnType;
using P = Presence;
using R = StepRecord;

constexpr std::string_view kRunId = "run id, the key that joins the tables";

// One line a column, in the order of the docs' tables and the writer's columns.
constexpr ColumnSpec kRuns[] = {
    {"run", T::kText, "", kRunId},
    {"name", T::kText, "", "the config's name"},
    {"workload", T::kText, "", "workload kind"},
    {"balancer", T::kText, "", "balancer entry's label"},
    {"static", T::kText, "", "initial partitioner (\"\" when none applies)"},
    {"dynamic", T::kText, "", "between-step or level balancer (\"\" when none)"},
    {"schedule", T::kText, "", "in-step schedule (\"\" when none)"},
    {"sweep", T::kText, "", "the sweep point, key=value,... (\"\" when none)"},
    {"mode", T::kText, "", "execution.mode"},
    {"executor", T::kText, "", "bsp, level, or the in-step schedule's name"},
    {"topology", T::kText, "", "processor topology"},
    {"processors", T::kInt64, "", "P, threads run as processors"},
    {"speeds", T::kText, "", "each processor's emulated speed, comma-separated (1: nominal)"},
    {"external_load_max", T::kText, "",
     "each processor's largest emulated external load level m, comma-separated (0: none)"},
    {"modules", T::kInt64, "", "M, modules of the workload (0: level workloads)"},
    {"steps", T::kInt64, "", "S, measured steps (levels for level workloads)"},
    {"warmup", T::kInt64, "", "unrecorded warm-up steps"},
    {"repetition", T::kInt64, "", "repetition index, from 0"},
    {"status", T::kText, "", "complete, or failed (an error, or a result that did not verify)"},
    {"verified", T::kInt64, "", "1 when the result matched the serial reference"},
    {"config_yaml", T::kText, "", "the run's fully resolved config"},
    {"invocation", T::kText, "", "the invocations row of the `lbbench run` that ran it"},
    {"run_uuid", T::kText, "", "random id; the same run in two sets"},
    {"git_sha", T::kText, "", "lbbench's commit (-dirty: uncommitted changes)"},
    {"compiler", T::kText, "", "compiler id and version"},
    {"flags", T::kText, "", "compile flags and build type"},
    {"host", T::kText, "", "host name"},
    {"cpu_model", T::kText, "", "CPU model (hwloc)"},
    {"omp_env", T::kText, "", "OMP_*/GOMP_* variables, proc_bind, places"},
    {"hdf5_version", T::kText, "", "HDF5 library version"},
    {"openblas", T::kText, "", "openblas_get_config()"},
    {"cores", T::kInt64, "", "physical cores (hwloc)"},
    {"hardware_threads", T::kInt64, "", "processing units (hwloc)"},
    {"available_processors", T::kInt64, "", "processors this process may use"},
    {"oversubscribed", T::kInt64, "",
     "1 when P > available_processors and the run's threads are real (0 when simulated)"},
    {"started", T::kText, "", "UTC start, ISO 8601"},
    {"load_start", T::kFloat64, "", "1-minute load average at the start"},
    {"load_end", T::kFloat64, "", "1-minute load average at the end"},
    {"finished", T::kText, "", "UTC end, ISO 8601"},
    {"verification", T::kText, "", "what was compared with the reference", P::kSometimes},
    {"verification_error", T::kFloat64, "", "error against the reference", P::kSometimes},
    {"verification_tolerance", T::kFloat64, "", "largest error accepted", P::kSometimes},
    {"checksum", T::kFloat64, "", "checksum of the result", P::kSometimes},
    {"reference_checksum", T::kFloat64, "", "checksum of the serial reference", P::kSometimes},
    {"makespan_total", T::kFloat64, "s", "sum of modelled step makespans", P::kSometimes},
    {"wall_total", T::kFloat64, "s", "sum of step wall times", P::kSometimes},
    {"ideal_total", T::kFloat64, "s", "sum of ideal step times", P::kSometimes},
    {"largest_module_total", T::kFloat64, "s",
     "sum over steps of the largest module's cost over the fastest speed (0: costs not recorded)",
     P::kSometimes},
    {"replayed_makespan_total", T::kFloat64, "s",
     "in-step schedules and fastest-finish schemes run on threads: the run's measured module costs "
     "(thread CPU time) replayed through the simulator's model at P processors of its speeds, "
     "summed over steps; the modelled verdict on an oversubscribed host (NaN: not replayed)",
     P::kSometimes},
    {"efficiency", T::kFloat64, "", "ideal_total / makespan_total", P::kSometimes},
    {"imbalance", T::kFloat64, "", "mean over steps of max/mean busy - 1", P::kSometimes},
    {"balance_total", T::kFloat64, "s", "sum of decision times", P::kSometimes},
    {"migrations_total", T::kInt64, "", "module copies", P::kSometimes},
    {"bytes_moved_total", T::kInt64, "B", "bytes of module state copied", P::kSometimes},
    {"initial_partition_seconds", T::kFloat64, "s", "initial partition time", P::kSometimes},
    {"archive_seconds", T::kFloat64, "s", "thread CPU time handing step records to the writer",
     P::kSometimes},
    {"run_wall", T::kFloat64, "s", "wall time of the whole run", P::kSometimes},
    {"tasks_total", T::kInt64, "", "level workloads: tasks over all levels", P::kSometimes},
    {"max_distance", T::kInt64, "", "level workloads: farthest hop of a task", P::kSometimes},
    {"error", T::kText, "", "why the run failed", P::kOnFailure},
    {"interrupted", T::kInt64, "",
     "1: failed because the process was stopped as it ran (SIGINT, SIGTERM; under mpirun, "
     "another rank ended); `run --resume` runs it again",
     P::kSometimes},
    {"ranks", T::kText, "",
     "a run across MPI ranks: rank:host:threads for each rank, comma-separated", P::kSometimes},
    {"auto_predicted_*", T::kFloat64, "s",
     "`dynamic: auto`: each candidate's predicted total at the run's first synchronisation (Zaki "
     "et al.'s cost model); a later phase's with the suffix _phase<k>",
     P::kSometimes},
    {"auto_chose_*", T::kFloat64, "", "`dynamic: auto`: 1 for the candidate it chose and ran",
     P::kSometimes},
    {"auto_decision_step", T::kFloat64, "",
     "`dynamic: auto`: the step of its choice, warm-up included (0: the run's first)",
     P::kSometimes},
    {"*", T::kFloat64, "", "figures the workload declares (e.g. nodes, levels)", P::kSometimes},
};

constexpr ColumnSpec kSteps[] = {
    {"run", T::kText, "", kRunId},
    {"step", T::kInt64, "", "measured step index, from 0 (warm-up steps are not recorded)"},
    {"wall", T::kFloat64, "s", "compute + serial + balance + migration phases, wall clock",
     P::kAlways, &R::wall},
    {"compute_wall", T::kFloat64, "s", "first processor start to last processor end", P::kAlways,
     &R::compute_wall},
    {"makespan", T::kFloat64, "s",
     "modelled: sum over phases of the slowest processor + serial (CPU time)", P::kAlways,
     &R::makespan},
    {"ideal", T::kFloat64, "s", "sum of busy CPU time / sum of speeds (the lower bound)",
     P::kAlways, &R::ideal},
    {"serial", T::kFloat64, "s", "the workload's serial end-of-step work (CPU)", P::kAlways,
     &R::serial},
    {"balance", T::kFloat64, "s", "decision time, sum over phases of the largest processor's (CPU)",
     P::kAlways, &R::balance},
    {"balance_wall", T::kFloat64, "s", "wall time of the step's decisions, waiting included",
     P::kAlways, &R::balance_wall},
    {"migrations", T::kInt64, "", "module copies during and after the step", P::kAlways,
     &R::migrations},
    {"bytes_moved", T::kInt64, "B", "bytes of module state copied", P::kAlways, &R::bytes_moved},
    {"predicted_before", T::kFloat64, "s",
     "predicted makespan (max over processors of sum(cost) / speed, summed over phases) of the "
     "assignment the step's decisions started from; NaN when none predicted",
     P::kAlways, &R::predicted_before},
    {"predicted_after", T::kFloat64, "s",
     "predicted makespan of the decisions' proposal, moved or declined; NaN when none predicted",
     P::kAlways, &R::predicted_after},
    {"metric_*", T::kFloat64, "",
     "the workload's step metrics (e.g. metric_residual); an in-step schedule adds "
     "metric_remote_runs; NaN for runs without it",
     P::kSometimes},
};

constexpr ColumnSpec kProcs[] = {
    {"run", T::kText, "", kRunId},
    {"step", T::kInt64, "", "measured step index"},
    {"proc", T::kInt64, "", "processor index, from 0"},
    {"busy", T::kFloat64, "s", "thread CPU time running modules", P::kAlways, &R::busy},
    {"busy_wall", T::kFloat64, "s", "wall time running modules (preemption included)", P::kAlways,
     &R::busy_wall},
    {"idle", T::kFloat64, "s", "makespan - serial - (busy + balance + migration)", P::kAlways,
     &R::idle},
    {"balance", T::kFloat64, "s", "own decision time, or the decider's it waited for", P::kAlways,
     &R::proc_balance},
    {"migration", T::kFloat64, "s", "CPU time copying module states in", P::kAlways,
     &R::proc_migration},
    {"external_load", T::kFloat64, "",
     "emulated load level, mean over the step's module time (0: none)", P::kAlways,
     &R::external_load},
    {"triggered", T::kInt32, "", "in-step synchronisations the processor triggered (0: none)",
     P::kAlways, &R::triggered},
};

constexpr ColumnSpec kModules[] = {
    {"run", T::kText, "", kRunId},
    {"step", T::kInt64, "", "measured step index"},
    {"phase", T::kInt32, "", "the workload's phase within the step, from 0"},
    {"module", T::kInt64, "", "module index, from 0"},
    {"cost", T::kFloat64, "s", "the module's cost in the phase, scaled to its owner's CPU time"},
    {"owner", T::kInt32, "", "the processor that ran it in the phase (-1: not recorded)"},
};

constexpr ColumnSpec kInvocations[] = {
    {"invocation", T::kText, "", "invocation id (UTC start and a random suffix)"},
    {"started", T::kText, "", "UTC start, ISO 8601"},
    {"command", T::kText, "", "the command line"},
    {"host", T::kText, "", "host name"},
    {"git_sha", T::kText, "", "lbbench's commit"},
    {"git_dirty", T::kInt64, "", "1 when built with uncommitted changes"},
    {"compiler", T::kText, "", "compiler id and version"},
    {"flags", T::kText, "", "compile flags"},
    {"build_type", T::kText, "", "CMake build type"},
    {"cpu_model", T::kText, "", "CPU model (hwloc, else /proc/cpuinfo)"},
    {"cpu_governor", T::kText, "", "cpufreq governor of cpu0 (\"unknown\")"},
    {"omp_env", T::kText, "", "every OMP_*/GOMP_* variable, proc_bind, places"},
    {"openblas", T::kText, "", "openblas_get_config()"},
    {"openblas_core", T::kText, "", "openblas_get_corename(): the kernel chosen"},
    {"hdf5_version", T::kText, "", "HDF5 library version"},
    {"slice", T::kText, "", "i/n of `run --slice`, \"\" for the whole sweep"},
    {"hwloc_topology", T::kText, "", "the host's hwloc XML export"},
};

constexpr TableSpec kTables[] = {
    {TableId::kRuns, "runs", "one row per run that ended", kRuns},
    {TableId::kSteps, "steps", "one row per measured step of a run", kSteps},
    {TableId::kProcs, "procs", "one row per processor of a measured step", kProcs},
    {TableId::kModules, "modules",
     "one row per module of a phase of a measured step (runs with execution.module_detail)",
     kModules},
    {TableId::kInvocations, "invocations", "one row per `lbbench run` that wrote the part",
     kInvocations},
};

std::string_view presence_name(Presence p) {
  switch (p) {
    case Presence::kAlways:
      return "always";
    case Presence::kOnFailure:
      return "on failure";
    case Presence::kSometimes:
      return "sometimes";
  }
  return "?";
}

}  // namespace

std::span<const TableSpec> result_tables() {
  return kTables;
}

const TableSpec& table_spec(TableId id) {
  return kTables[static_cast<int>(id)];
}

const ColumnSpec* find_column(TableId table, std::string_view name) {
  const ColumnSpec* family = nullptr;
  for (const ColumnSpec& c : table_spec(table).columns) {
    if (c.name == name) return &c;
    const std::string_view prefix = c.name.substr(0, c.name.size() - 1);
    if (!family && c.name.ends_with('*') && name.starts_with(prefix) && name.size() > prefix.size())
      family = &c;
  }
  return family;
}

std::string_view column_type_name(ColumnType t) {
  switch (t) {
    case ColumnType::kText:
      return "text";
    case ColumnType::kInt32:
      return "int32";
    case ColumnType::kInt64:
      return "int64";
    case ColumnType::kFloat64:
      return "float64";
  }
  return "?";
}

std::string result_schema_json() {
  nlohmann::json j;
  j["schema"] = kResultSchemaName;
  j["schema_version"] = kResultSchemaVersion;
  for (const TableSpec& t : kTables) {
    nlohmann::json table{{"name", t.name}, {"meaning", t.meaning}};
    for (const ColumnSpec& c : t.columns)
      table["columns"].push_back({{"name", c.name},
                                  {"type", column_type_name(c.type)},
                                  {"unit", c.unit},
                                  {"presence", presence_name(c.presence)},
                                  {"meaning", c.meaning}});
    j["tables"].push_back(table);
  }
  return j.dump(2);
}

void write_result_schema_markdown(std::ostream& out) {
  out << "Schema `" << kResultSchemaName << "` version " << kResultSchemaVersion
      << ". A name ending in `*` is a family of columns. A row without a value holds \"\" (text), "
         "-1 (integer) or NaN (float64).\n";
  for (const TableSpec& t : kTables) {
    out << "\n`/" << t.name << "`: " << t.meaning << ".\n\n"
        << "| column | type | unit | present | meaning |\n|---|---|---|---|---|\n";
    for (const ColumnSpec& c : t.columns)
      out << "| `" << c.name << "` | " << column_type_name(c.type) << " | " << c.unit << " | "
          << presence_name(c.presence) << " | " << c.meaning << " |\n";
  }
}

}  // namespace lbb
