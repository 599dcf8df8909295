#pragma once
// `lbbench schedule`: one loop schedule's chunks on P modelled processors (harness/sim/
// schedule_model.h), printed as one JSON object, as `partition` and `balance` print one decision.
// The pieces are here so tests can call them without a process.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

namespace lbb {

// The most processors a request may name (each is listed in the report).
inline constexpr int kMaxScheduleProcessors = 1 << 16;

struct ScheduleRequest {
  std::string method;           // a schedule of `lbbench list` (omp_static, gss, fac2, awf_b...)
  std::int64_t iterations = 0;  // N; 0: as many as iteration times are given
  int processors = 0;           // P >= 1
  std::vector<double> speeds;   // empty: all 1; else one positive speed per processor
  std::vector<std::string> params;  // "name=value", checked against the schedule's ParamSpecs
};

// Keys: method, processors, iterations, params (resolved), speeds, chunks (in hand-out order,
// each {processor, first, count, start, end}: iterations [first, first + count), modelled
// seconds), per_processor ({iterations, chunks, busy}), makespan. `times`: each iteration's
// nominal seconds (empty: N iterations of 1 s). Throws PartitionInputError with a message naming
// the bad input.
nlohmann::json run_schedule(const ScheduleRequest& request, std::span<const double> times);

}  // namespace lbb
