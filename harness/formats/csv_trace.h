#pragma once
// The plain trace format, for any program: one CSV line per task per step, under a header naming
// the columns, in any order:
//   step,task,cost[,owner][,bytes][,neighbours]
// step and task are integers >= 0 (ids, numbered densely in ascending order), cost the task's
// seconds in that step, owner the processor it ran on (the starting assignment; absent or empty
// on every line: the static partition), bytes what moving it copies, neighbours the ids of the
// tasks it exchanges data with, separated by ';'. Blank lines and lines starting with '#' are
// skipped.
#include <string>

#include "harness/formats/trace.h"

namespace lbb {

inline constexpr const char* kCsvTraceFormat =
    "step,task,cost[,owner][,bytes][,neighbours]: one line per task per step; neighbours are "
    "task ids separated by ';'";

// A TraceError names the file and line of what is wrong.
void read_csv_trace(const std::string& path, TraceBuilder& out);

}  // namespace lbb
