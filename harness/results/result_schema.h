#pragma once
// The result set's records, described once: its six tables and every column's type, unit and
// meaning. The writer, the reader, `lbbench schema`, `lbbench export`, the docs' tables and the
// tests all read this table; each column dataset carries its unit and meaning as attributes.
// Adding a metric is one line here plus the code that computes it.
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "harness/base/record_level.h"
#include "harness/base/run_record.h"
#include "harness/base/step_record.h"

namespace lbb {

// Bumped whenever a column changes meaning or type; stored as the root attribute
// `schema_version` of every part.
inline constexpr int kResultSchemaVersion = 5;
// The oldest version the reader still reads: version 4 named results_seconds archive_seconds.
inline constexpr int kOldestResultSchemaVersion = 4;
inline constexpr std::string_view kResultSchemaName = "lbbench-results";

enum class ColumnType { kText, kInt32, kInt64, kFloat64 };

// When a runs column has a value: on every run, only on failure, or only on some runs (level
// workloads, `dynamic: auto`). A row without one holds its type's fill: "", -1 or NaN.
enum class Presence { kAlways, kOnFailure, kSometimes };

// Where a column's value comes from: a steps or procs column's in a StepRecord, a runs column's
// in a RunRecord (none: a runs column is one of RunRecord::figures).
using ColumnField =
    std::variant<std::monostate, double StepRecord::*, std::int64_t StepRecord::*,
                 std::vector<double> StepRecord::*, std::vector<int> StepRecord::*,
                 std::string RunRecord::*, std::int64_t RunRecord::*, double RunRecord::*>;

struct ColumnSpec {
  std::string_view name;  // a name ending in '*' is a family: any name with that prefix
  ColumnType type;
  std::string_view unit;  // "" when a count, a name or a flag
  std::string_view meaning;
  Presence presence = Presence::kAlways;
  ColumnField field = {};
};

enum class TableId { kRuns, kSteps, kProcs, kModules, kInvocations, kSpans, kTransfers };

struct TableSpec {
  TableId id;
  std::string_view name;     // the part's group
  std::string_view meaning;  // what a row is
  std::span<const ColumnSpec> columns;
  RecordLevel record;  // the coarsest execution.record that writes it (every finer one does too)
  // Non-empty: the key that makes a run write it, at any level (a part of an older schema may
  // lack the table: it reads as empty).
  std::string_view switch_key = "";
  // Added after the first parts were written: a part without it has no rows of it.
  bool added_later = false;
};

std::span<const TableSpec> result_tables();
const TableSpec& table_spec(TableId id);
// The column of that name (a family member matches its family), or null.
const ColumnSpec* find_column(TableId table, std::string_view name);

// A runs column of `run` by name, for readers given a column's name (`expect`'s `where` and
// metrics): a text column's text (none when `column` is no text column), a number column's value
// or a figure's (none at its fill, or when neither). Code that knows the column reads the field.
std::optional<std::string> run_text(const RunRecord& run, std::string_view column);
std::optional<double> run_number(const RunRecord& run, std::string_view column);

std::string_view column_type_name(ColumnType t);  // "text", "int32", "int64", "float64"

// The whole table as JSON (`lbbench schema`) and as the docs' Markdown tables.
std::string result_schema_json();
void write_result_schema_markdown(std::ostream& out);

}  // namespace lbb
