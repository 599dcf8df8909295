#pragma once
// What a run writes to its result set (`execution.record`): each level is named after the table
// it adds to the coarser levels' (runs and invocations are written at every level). Which
// tables a level writes is the schema's (TableSpec::record, harness/results/result_schema.cpp).
#include <array>
#include <optional>
#include <string_view>

#include "harness/base/run_record.h"

namespace lbb {

enum class RecordLevel { kRuns, kSteps, kProcs, kModules };

inline constexpr std::array<std::string_view, 4> kRecordLevelNames = {"runs", "steps", "procs",
                                                                      "modules"};

inline std::string_view record_level_name(RecordLevel level) {
  return kRecordLevelNames[static_cast<std::size_t>(level)];
}

inline std::optional<RecordLevel> parse_record_level(std::string_view name) {
  for (std::size_t k = 0; k < kRecordLevelNames.size(); ++k)
    if (kRecordLevelNames[k] == name) return static_cast<RecordLevel>(k);
  return std::nullopt;
}

// The level of a run read back: its `record` column, or for a set older than the column what every
// run then wrote (steps and procs; modules where execution.module_detail was true). A value no
// level names reads as runs: no table beyond the runs row is assumed.
inline RecordLevel recorded_level(const RunRecord& run) {
  if (run.record.empty())
    return run.config_yaml.find("module_detail: true") != std::string::npos ? RecordLevel::kModules
                                                                            : RecordLevel::kProcs;
  return parse_record_level(run.record).value_or(RecordLevel::kRuns);
}

}  // namespace lbb
