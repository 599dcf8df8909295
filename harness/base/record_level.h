#pragma once
// What a run writes to its result set (`execution.record`): each level is named after the table
// it adds to the coarser levels' (runs and invocations are written at every level). Which
// tables a level writes is the schema's (TableSpec::record, harness/results/result_schema.cpp).
#include <array>
#include <optional>
#include <string_view>

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

}  // namespace lbb
