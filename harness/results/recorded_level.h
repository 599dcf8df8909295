#pragma once
// The tables a run read back wrote (its `record` column, execution.record), and what a reader of
// a table says when the run's level did not write it.
#include <string>

#include "harness/base/record_level.h"
#include "harness/base/run_record.h"
#include "harness/results/result_schema.h"

namespace lbb {

// The run's level: its `record` column, or for a set older than the column what every run then
// wrote (steps and procs; modules where execution.module_detail was true). A value no level
// names reads as runs: no table beyond the runs row is assumed.
RecordLevel recorded_level(const RunRecord& run);
// Empty when the run's level writes `table`, else why there are no rows of it ("recorded at
// execution.record: steps, which writes no procs table; ... needs record: procs or finer").
std::string level_problem(const RunRecord& run, TableId table);

}  // namespace lbb
