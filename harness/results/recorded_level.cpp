#include "harness/results/recorded_level.h"

namespace lbb {

std::string level_problem(const RunRecord& run, TableId table) {
  const RecordLevel needed = table_spec(table).record, level = recorded_level(run);
  if (level >= needed) return "";
  const std::string name(table_spec(table).name);
  return "recorded at execution.record: " + std::string(record_level_name(level)) +
         ", which writes no " + name + " table; what reads it needs record: " + name +
         (needed == RecordLevel::kModules ? "" : " or finer") +
         " (docs/results.md, \"Record levels\")";
}

}  // namespace lbb
