#pragma once
// One measured span of a processor's timeline (execution.timeline: true): what it did from
// `start` to `end`, nanoseconds on the run's one monotonic clock (CLOCK_MONOTONIC, which
// std::chrono::steady_clock reads on Linux) from the run's time base (docs/results.md,
// "Timeline"). The spans table of a result set holds them (harness/results/result_schema.cpp).
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace lbb {

enum class SpanKind : std::int8_t { kModule, kDecision, kMigration, kWait, kSerial };

inline constexpr std::array<std::string_view, 5> kSpanKindNames = {"module", "decision",
                                                                   "migration", "wait", "serial"};

inline std::string_view span_kind_name(SpanKind k) {
  return kSpanKindNames[static_cast<std::size_t>(k)];
}

inline std::optional<SpanKind> parse_span_kind(std::string_view name) {
  for (std::size_t k = 0; k < kSpanKindNames.size(); ++k)
    if (kSpanKindNames[k] == name) return static_cast<SpanKind>(k);
  return std::nullopt;
}

struct TimelineSpan {
  std::int64_t start = 0, end = 0;  // ns from the run's time base
  std::int32_t step = 0;            // measured step index (warm-up steps are not kept)
  std::int32_t module = -1;         // a module's span: its index; else -1
  std::int32_t proc = 0;            // the processor whose track it is on
  std::int16_t phase = 0;           // the workload's phase within the step
  std::int16_t rank = 0;            // the MPI rank that ran it (0: one process)
  SpanKind kind = SpanKind::kModule;
};

}  // namespace lbb
