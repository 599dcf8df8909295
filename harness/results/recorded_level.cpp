#include "harness/results/recorded_level.h"

namespace lbb {

RecordLevel recorded_level(const RunRecord& run) {
  if (run.record.empty())
    return run.config_yaml.find("module_detail: true") != std::string::npos ? RecordLevel::kModules
                                                                            : RecordLevel::kProcs;
  return parse_record_level(run.record).value_or(RecordLevel::kRuns);
}

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
