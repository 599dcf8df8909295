#include "harness/archive/archive_schema.h"

#include <nlohmann/json.hpp>

namespace lbb {

namespace {

using T = RecordType;
using P = Presence;
using R = StepRecord;

// One line a record. The order is the order of the docs' table and of the writer's columns.
constexpr AttributeSpec kRunAttributes[] = {
    {"name", T::kText, P::kAlways, "", "the config's name"},
    {"workload", T::kText, P::kAlways, "", "workload kind"},
    {"balancer", T::kText, P::kAlways, "", "balancer entry's label"},
    {"static", T::kText, P::kAlways, "", "initial partitioner (\"\" when none applies)"},
    {"dynamic", T::kText, P::kAlways, "", "between-step or level balancer (\"\" when none)"},
    {"schedule", T::kText, P::kAlways, "", "in-step schedule (\"\" when none)"},
    {"sweep", T::kText, P::kAlways, "", "the sweep point, key=value,... (\"\" when none)"},
    {"mode", T::kText, P::kAlways, "", "execution.mode"},
    {"executor", T::kText, P::kAlways, "", "bsp, level, or the in-step schedule's name"},
    {"topology", T::kText, P::kAlways, "", "processor topology"},
    {"processors", T::kInt64, P::kAlways, "", "P, threads run as processors"},
    {"modules", T::kInt64, P::kAlways, "", "M, modules of the workload (0: level workloads)"},
    {"steps", T::kInt64, P::kAlways, "", "S, measured steps (levels for level workloads)"},
    {"warmup", T::kInt64, P::kAlways, "", "unrecorded warm-up steps"},
    {"repetition", T::kInt64, P::kAlways, "", "repetition index, from 0"},
    {"status", T::kText, P::kAlways, "", "partial while running, then complete or failed"},
    {"verified", T::kInt64, P::kAlways, "", "1 when the result matched the serial reference"},
    {"config_yaml", T::kText, P::kAlways, "", "the run's fully resolved config"},
    {"invocation", T::kText, P::kAlways, "", "the /invocations/<id> that ran it"},
    {"run_uuid", T::kText, P::kAlways, "", "random id; the same run in two archives"},
    {"git_sha", T::kText, P::kAlways, "", "lbbench's commit (-dirty: uncommitted changes)"},
    {"compiler", T::kText, P::kAlways, "", "compiler id and version"},
    {"flags", T::kText, P::kAlways, "", "compile flags and build type"},
    {"host", T::kText, P::kAlways, "", "host name"},
    {"cpu_model", T::kText, P::kAlways, "", "CPU model (hwloc)"},
    {"omp_env", T::kText, P::kAlways, "", "OMP_*/GOMP_* variables, proc_bind, places"},
    {"hdf5_version", T::kText, P::kAlways, "", "HDF5 library version"},
    {"openblas", T::kText, P::kAlways, "", "openblas_get_config()"},
    {"cores", T::kInt64, P::kAlways, "", "physical cores (hwloc)"},
    {"hardware_threads", T::kInt64, P::kAlways, "", "processing units (hwloc)"},
    {"available_processors", T::kInt64, P::kAlways, "", "processors this process may use"},
    {"oversubscribed", T::kInt64, P::kAlways, "",
     "1 when P > available_processors and the run's threads are real (0 when simulated)"},
    {"started", T::kText, P::kAlways, "", "UTC start, ISO 8601"},
    {"load_start", T::kFloat64, P::kAlways, "", "1-minute load average at the start"},
    {"load_end", T::kFloat64, P::kWhenEnded, "", "1-minute load average at the end"},
    {"finished", T::kText, P::kWhenEnded, "", "UTC end, ISO 8601"},
    {"verification", T::kText, P::kWhenEnded, "", "what was compared with the reference"},
    {"verification_error", T::kFloat64, P::kWhenEnded, "", "error against the reference"},
    {"verification_tolerance", T::kFloat64, P::kWhenEnded, "", "largest error accepted"},
    {"checksum", T::kFloat64, P::kWhenEnded, "", "checksum of the result"},
    {"reference_checksum", T::kFloat64, P::kWhenEnded, "", "checksum of the serial reference"},
    {"makespan_total", T::kFloat64, P::kWhenEnded, "s", "sum of modelled step makespans"},
    {"wall_total", T::kFloat64, P::kWhenEnded, "s", "sum of step wall times"},
    {"ideal_total", T::kFloat64, P::kWhenEnded, "s", "sum of ideal step times"},
    {"efficiency", T::kFloat64, P::kWhenEnded, "", "ideal_total / makespan_total"},
    {"imbalance", T::kFloat64, P::kWhenEnded, "", "mean over steps of max/mean busy - 1"},
    {"balance_total", T::kFloat64, P::kWhenEnded, "s", "sum of decision times"},
    {"migrations_total", T::kInt64, P::kWhenEnded, "", "module copies"},
    {"bytes_moved_total", T::kInt64, P::kWhenEnded, "B", "bytes of module state copied"},
    {"initial_partition_seconds", T::kFloat64, P::kWhenEnded, "s", "initial partition time"},
    {"archive_seconds", T::kFloat64, P::kWhenEnded, "s",
     "thread CPU time handing records to the archive"},
    {"run_wall", T::kFloat64, P::kWhenEnded, "s", "wall time of the whole run"},
    {"tasks_total", T::kInt64, P::kSometimes, "", "level workloads: tasks over all levels"},
    {"max_distance", T::kInt64, P::kSometimes, "", "level workloads: farthest hop of a task"},
    {"error", T::kText, P::kOnFailure, "", "why the run failed"},
    {"merged_from", T::kText, P::kSometimes, "", "`lbbench merge`: the archive it came from"},
    {"source_run", T::kText, P::kSometimes, "", "`lbbench merge`: its run id there"},
    {"auto_profile_seconds", T::kFloat64, P::kSometimes, "s",
     "`dynamic: auto`: modelled time of the profiling steps run before the choice"},
    {"auto_predicted_<candidate>", T::kFloat64, P::kSometimes, "s",
     "`dynamic: auto`: each candidate's predicted total (Zaki et al.'s cost model); `dynamic` "
     "names the one run"},
    {"<workload attribute>", T::kFloat64, P::kSometimes, "",
     "figures the workload declares (e.g. nodes, levels, remote_runs)"},
};

constexpr AttributeSpec kInvocationAttributes[] = {
    {"schema_version", T::kInt64, P::kAlways, "", "version of this table"},
    {"started", T::kText, P::kAlways, "", "UTC start, ISO 8601"},
    {"command", T::kText, P::kAlways, "", "the command line"},
    {"host", T::kText, P::kAlways, "", "host name"},
    {"git_sha", T::kText, P::kAlways, "", "lbbench's commit"},
    {"git_dirty", T::kInt64, P::kAlways, "", "1 when built with uncommitted changes"},
    {"compiler", T::kText, P::kAlways, "", "compiler id and version"},
    {"flags", T::kText, P::kAlways, "", "compile flags"},
    {"build_type", T::kText, P::kAlways, "", "CMake build type"},
    {"cpu_model", T::kText, P::kAlways, "", "CPU model (hwloc, else /proc/cpuinfo)"},
    {"cpu_governor", T::kText, P::kAlways, "", "cpufreq governor of cpu0 (\"unknown\")"},
    {"omp_env", T::kText, P::kAlways, "", "every OMP_*/GOMP_* variable, proc_bind, places"},
    {"openblas", T::kText, P::kAlways, "", "openblas_get_config()"},
    {"openblas_core", T::kText, P::kAlways, "", "openblas_get_corename(): the kernel chosen"},
    {"hdf5_version", T::kText, P::kAlways, "", "HDF5 library version"},
    {"slice", T::kText, P::kAlways, "", "i/n of `run --slice`, \"\" for the whole sweep"},
    {"hwloc_topology", T::kText, P::kAlways, "", "the host's hwloc XML export", true},
};

constexpr DatasetSpec kStepDatasets[] = {
    {"step/wall", T::kFloat64, RecordShape::kSteps, P::kAlways, "s",
     "compute + serial + balance + migration phases, wall clock", &R::wall},
    {"step/compute_wall", T::kFloat64, RecordShape::kSteps, P::kAlways, "s",
     "first processor start to last processor end", &R::compute_wall},
    {"step/makespan", T::kFloat64, RecordShape::kSteps, P::kAlways, "s",
     "modelled: sum over phases of the slowest processor + serial (CPU time)", &R::makespan},
    {"step/ideal", T::kFloat64, RecordShape::kSteps, P::kAlways, "s",
     "sum of busy CPU time / sum of speeds (the lower bound)", &R::ideal},
    {"step/serial", T::kFloat64, RecordShape::kSteps, P::kAlways, "s",
     "the workload's serial end-of-step work (CPU)", &R::serial},
    {"step/balance", T::kFloat64, RecordShape::kSteps, P::kAlways, "s",
     "decision time, sum over phases of the largest processor's (CPU)", &R::balance},
    {"step/balance_wall", T::kFloat64, RecordShape::kSteps, P::kAlways, "s",
     "wall time of the step's decisions, waiting included", &R::balance_wall},
    {"step/migrations", T::kInt64, RecordShape::kSteps, P::kAlways, "",
     "module copies during and after the step", &R::migrations},
    {"step/bytes_moved", T::kInt64, RecordShape::kSteps, P::kAlways, "B",
     "bytes of module state copied", &R::bytes_moved},
    {"step/predicted_before", T::kFloat64, RecordShape::kSteps, P::kAlways, "s",
     "predicted makespan (max over processors of sum(cost) / speed, summed over phases) of the "
     "assignment the step's decisions started from; NaN when none predicted",
     &R::predicted_before},
    {"step/predicted_after", T::kFloat64, RecordShape::kSteps, P::kAlways, "s",
     "predicted makespan of the decisions' proposal, moved or declined; NaN when none predicted",
     &R::predicted_after},
    {"proc/busy", T::kFloat64, RecordShape::kStepsByProcessors, P::kAlways, "s",
     "thread CPU time running modules", &R::busy},
    {"proc/busy_wall", T::kFloat64, RecordShape::kStepsByProcessors, P::kAlways, "s",
     "wall time running modules (preemption included)", &R::busy_wall},
    {"proc/idle", T::kFloat64, RecordShape::kStepsByProcessors, P::kAlways, "s",
     "makespan - serial - (busy + balance + migration)", &R::idle},
    {"proc/balance", T::kFloat64, RecordShape::kStepsByProcessors, P::kAlways, "s",
     "own decision time, or the decider's it waited for", &R::proc_balance},
    {"proc/migration", T::kFloat64, RecordShape::kStepsByProcessors, P::kAlways, "s",
     "CPU time copying module states in", &R::proc_migration},
    {"proc/external_load", T::kFloat64, RecordShape::kStepsByProcessors, P::kAlways, "",
     "emulated load level, mean over the step's module time (0: none)", &R::external_load},
    {"proc/triggered", T::kInt32, RecordShape::kStepsByProcessors, P::kAlways, "",
     "in-step synchronisations the processor triggered (0: none)", &R::triggered},
    {"module/cost", T::kFloat64, RecordShape::kStepsByModules, P::kSometimes, "s",
     "a module's cost, scaled to its owner's CPU time (execution.module_detail)", &R::module_cost},
    {"module/owner", T::kInt32, RecordShape::kStepsByModules, P::kSometimes, "",
     "the module's processor in the step's first phase (execution.module_detail)",
     &R::module_owner},
    {"module/phase_cost", T::kFloat64, RecordShape::kStepsByPhaseModules, P::kSometimes, "s",
     "per phase (column phase x M + module), a module's cost scaled to its owner's CPU time "
     "(execution.module_detail, workloads of several phases)",
     &R::phase_module_cost},
    {"module/phase_owner", T::kInt32, RecordShape::kStepsByPhaseModules, P::kSometimes, "",
     "per phase (column phase x M + module), the processor that ran the module "
     "(execution.module_detail, workloads of several phases)",
     &R::phase_module_owner},
    {"metric/<name>", T::kFloat64, RecordShape::kSteps, P::kSometimes, "",
     "the workload's step metrics (e.g. residual); an in-step schedule adds remote_runs",
     std::monostate{}},
};

}  // namespace

std::span<const AttributeSpec> run_attributes() {
  return kRunAttributes;
}
std::span<const AttributeSpec> invocation_attributes() {
  return kInvocationAttributes;
}
std::span<const DatasetSpec> step_datasets() {
  return kStepDatasets;
}

const AttributeSpec* find_run_attribute(std::string_view name) {
  for (const auto& a : kRunAttributes)
    if (a.name == name) return &a;
  return nullptr;
}

const DatasetSpec* find_step_dataset(std::string_view path) {
  for (const auto& d : kStepDatasets)
    if (d.name == path) return &d;
  if (path.starts_with("metric/") && path.size() > 7 && path.find('/', 7) == path.npos)
    return &kStepDatasets[std::size(kStepDatasets) - 1];
  return nullptr;
}

std::string_view record_type_name(RecordType t) {
  switch (t) {
    case RecordType::kText:
      return "text";
    case RecordType::kInt32:
      return "int32";
    case RecordType::kInt64:
      return "int64";
    case RecordType::kFloat64:
      return "float64";
  }
  return "?";
}

std::size_t record_type_bytes(RecordType t) {
  switch (t) {
    case RecordType::kText:
      return 0;
    case RecordType::kInt32:
      return 4;
    case RecordType::kInt64:
    case RecordType::kFloat64:
      return 8;
  }
  return 0;
}

std::string_view record_shape_name(RecordShape s) {
  switch (s) {
    case RecordShape::kScalar:
      return "scalar";
    case RecordShape::kSteps:
      return "[S]";
    case RecordShape::kStepsByProcessors:
      return "[S,P]";
    case RecordShape::kStepsByModules:
      return "[S,M]";
    case RecordShape::kStepsByPhaseModules:
      return "[S,F*M]";
  }
  return "?";
}

namespace {

std::string_view presence_name(Presence p) {
  switch (p) {
    case Presence::kAlways:
      return "always";
    case Presence::kWhenEnded:
      return "when ended";
    case Presence::kOnFailure:
      return "on failure";
    case Presence::kSometimes:
      return "sometimes";
  }
  return "?";
}

nlohmann::json attribute_json(const AttributeSpec& a) {
  return {{"name", a.name},
          {"type", record_type_name(a.type)},
          {"shape", "scalar"},
          {"presence", presence_name(a.presence)},
          {"unit", a.unit},
          {"meaning", a.meaning},
          {"stored_as", a.as_dataset ? "dataset" : "attribute"}};
}

}  // namespace

std::string archive_schema_json() {
  nlohmann::json j;
  j["schema_version"] = kArchiveSchemaVersion;
  j["run_group"] = "/runs/<run-id>";  // a run written across commits (run_tables.h)
  j["run_table"] = {
      {"group", "/tables/<table-id>"},
      {"run_id", "text [R]"},
      {"step_rows", "int64 [R]"},
      {"attr_numbers", "compound [R]: a member (int64 or float64) a number attribute"},
      {"attr_present", "compound [R]: a member (int32, 1: has it) a number some run lacks"},
      {"attr_texts",
       "compound [R]: a member (int32) a text attribute, an index into "
       "attr_text_values; -1: absent"},
      {"attr_text_values", "text [U]: the distinct texts, each once"},
      {"<step dataset>",
       "the runs' rows one after another, step_rows each; one equal byte for byte to an earlier "
       "one is a second hard link to it"}};
  j["invocation_group"] = "/invocations/<invocation-id>";
  for (const auto& a : kRunAttributes) j["run_attributes"].push_back(attribute_json(a));
  for (const auto& a : kInvocationAttributes)
    j["invocation_attributes"].push_back(attribute_json(a));
  for (const auto& d : kStepDatasets)
    j["step_datasets"].push_back({{"name", d.name},
                                  {"type", record_type_name(d.type)},
                                  {"shape", record_shape_name(d.shape)},
                                  {"presence", presence_name(d.presence)},
                                  {"unit", d.unit},
                                  {"meaning", d.meaning}});
  return j.dump(2);
}

namespace {

void markdown_attributes(std::ostream& out, std::span<const AttributeSpec> table) {
  out << "| attribute | type | present | unit | meaning |\n|---|---|---|---|---|\n";
  for (const auto& a : table)
    out << "| `" << a.name << "` | " << record_type_name(a.type)
        << (a.as_dataset ? " (dataset)" : "") << " | " << presence_name(a.presence) << " | "
        << a.unit << " | " << a.meaning << " |\n";
}

}  // namespace

void write_archive_schema_markdown(std::ostream& out) {
  out << "Schema version " << kArchiveSchemaVersion
      << ". Run attributes (a member of a run table's `attr_numbers` or `attr_texts`, or an "
         "attribute of `/runs/<run-id>`):\n\n";
  markdown_attributes(out, kRunAttributes);
  out << "\nPer-step datasets (a run table's columns, its runs' rows one after another, or "
         "`/runs/<run-id>/...`; S steps, P processors, M modules):\n\n"
      << "| dataset | type | shape | present | unit | meaning |\n|---|---|---|---|---|---|\n";
  for (const auto& d : kStepDatasets)
    out << "| `" << d.name << "` | " << record_type_name(d.type) << " | "
        << record_shape_name(d.shape) << " | " << presence_name(d.presence) << " | " << d.unit
        << " | " << d.meaning << " |\n";
  out << "\nInvocation attributes (`/invocations/<invocation-id>`, provenance stored once per "
         "invocation):\n\n";
  markdown_attributes(out, kInvocationAttributes);
}

}  // namespace lbb
