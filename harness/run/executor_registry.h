#pragma once
// The single table of executors (harness/run/executor_registry.cpp). A config picks one with
// `execution.executor: NAME`; "auto", the default, takes the first in the table that runs the
// config's workload with what its balancers entry gives (balancers, or an in-step schedule).
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "harness/exec/execution.h"

namespace lbb {

// What an executor runs: modules that persist across steps, tasks born level by level, or
// synthetic module costs with no kernel (only a simulating executor runs those).
enum class WorkShape { kModules, kLevels, kCosts };
WorkShape workload_shape(const WorkloadInfo& workload);

struct ExecutorInfo {
  std::string name;
  std::string summary;  // one line, with the paper it follows
  WorkShape shape = WorkShape::kModules;
  bool takes_balancers = true;  // static and dynamic balancers (or none)
  bool takes_schedule = false;  // an in-step schedule instead of balancers
  ExecutionFactory make;
  bool simulates = false;     // runs no kernel: module workloads' recorded costs or synthetic ones
  bool asynchronous = false;  // no barrier between steps (async, async_modelled, mpi_async)
  // execution.record: auto: what its runs write. procs where a kernel runs: what the report's
  // busy maps read, at under 2 % of every shipped config's CPU; the simulator's steps, as its
  // model is cheap beside a row per processor and step (docs/evidence/record-levels-2026-12-02.md).
  RecordLevel record = RecordLevel::kProcs;
};

// Every executor, in the order `lbbench list` shows them and "auto" tries them.
std::span<const ExecutorInfo> executor_registry();
const ExecutorInfo* find_executor(std::string_view name);
// "auto" and every executor's name: the values `execution.executor` accepts.
std::vector<std::string> executor_choices();

// Empty when `info` runs `spec` (a workload of shape `shape`), else why not.
std::string executor_mismatch(const ExecutorInfo& info, const RunSpec& spec, WorkShape shape);
// The executor spec.executor names, or for "auto" the first that runs the spec; under mpirun its
// version across ranks. Throws std::invalid_argument saying why none does. Called once a run, as
// its config is expanded (config/sweep_expansion.cpp), which keeps the name in spec.executor.
const ExecutorInfo& choose_executor(const RunSpec& spec, const WorkloadInfo& workload);
// The executor kept in spec.executor; one still "auto" (a spec never expanded) is chosen now.
// Throws std::invalid_argument when none runs it.
const ExecutorInfo& executor_of(const RunSpec& spec);
// Whether a simulating executor runs the spec: its processors are modelled, no thread runs.
bool runs_simulated(const RunSpec& spec);

// Whether `info` runs `spec`'s steps asynchronously: an asynchronous executor, or the simulator
// with an asynchronous balancer (predictive).
bool asynchronous_steps(const ExecutorInfo& info, const RunSpec& spec);

}  // namespace lbb
