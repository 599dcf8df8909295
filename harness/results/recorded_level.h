#pragma once
// What a reader of a table says when the run's level (recorded_level, base/record_level.h) did
// not write it.
#include <string>

#include "harness/base/record_level.h"
#include "harness/base/run_record.h"
#include "harness/results/result_schema.h"

namespace lbb {

// Empty when the run's level writes `table`, else why there are no rows of it ("recorded at
// execution.record: steps, which writes no procs table; ... needs record: procs or finer").
std::string level_problem(const RunRecord& run, TableId table);

}  // namespace lbb
