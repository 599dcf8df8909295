#pragma once
// The archive's records, described once: every run attribute and every per-step dataset with
// its HDF5 type, shape, unit and meaning. The writer, the reader, `lbbench schema`, the tests'
// archive checker and the "Archive" section of docs/ARCHITECTURE.md all read this table.
// Adding a metric is one line here plus the code that computes it.
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "harness/step_record.h"

namespace lbb {

// Bumped whenever a record changes meaning or type; archived as the root attribute
// `schema_version` and in every invocation.
inline constexpr int kArchiveSchemaVersion = 3;

enum class RecordType { kText, kInt32, kInt64, kFloat64 };
enum class RecordShape {
  kScalar,
  kSteps,
  kStepsByProcessors,
  kStepsByModules,
  kStepsByPhaseModules
};

// When an attribute is present: on every run, once the run ended (complete or failed), only on
// failure, only on some runs (level workloads, module detail), or named by the workload.
enum class Presence { kAlways, kWhenEnded, kOnFailure, kSometimes };

struct AttributeSpec {
  std::string_view name;
  RecordType type;
  Presence presence;
  std::string_view unit;  // "" when a count, a name or a flag
  std::string_view meaning;
  bool as_dataset = false;  // a scalar dataset rather than an attribute (too large for one)
};

// Where a dataset's row comes from in a StepRecord; monostate: the workload's metric/<name>.
using StepField = std::variant<std::monostate, double StepRecord::*, std::int64_t StepRecord::*,
                               std::vector<double> StepRecord::*, std::vector<int> StepRecord::*>;

struct DatasetSpec {
  std::string_view name;  // path under the run's group; "metric/<name>" is one per step metric
  RecordType type;
  RecordShape shape;
  Presence presence;  // kSometimes: module/* only with execution.module_detail
  std::string_view unit;
  std::string_view meaning;
  StepField field;
};

std::span<const AttributeSpec> run_attributes();
std::span<const DatasetSpec> step_datasets();

// The attribute or dataset of that name (metric/<anything> matches the metric family), or null.
const AttributeSpec* find_run_attribute(std::string_view name);
const DatasetSpec* find_step_dataset(std::string_view path);

// Attributes on an /invocations/<id> group (provenance stored once per invocation).
std::span<const AttributeSpec> invocation_attributes();

std::string_view record_type_name(RecordType t);  // "text", "int32", "int64", "float64"
std::size_t record_type_bytes(RecordType t);      // bytes of one value; 0 for text
// A step dataset's `cols` values a row, 0 standing for a one-dimensional dataset: its values a
// row and its rank.
constexpr std::uint64_t row_values(std::uint64_t cols) {
  return cols == 0 ? 1 : cols;
}
constexpr int step_rank(std::uint64_t cols) {
  return cols == 0 ? 1 : 2;
}
// "scalar", "[S]", "[S,P]", "[S,M]", "[S,F*M]" (F phases, phase-major)
std::string_view record_shape_name(RecordShape s);

// The whole table as JSON (`lbbench schema`) and as the docs' Markdown tables.
std::string archive_schema_json();
void write_archive_schema_markdown(std::ostream& out);

}  // namespace lbb
