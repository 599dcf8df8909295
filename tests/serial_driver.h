#pragma once
// Drives a workload without the harness: every module of every phase in module order, then
// finish_step, as the executor would on one processor.
#include "harness/formats/trace_workload.h"
#include "workloads/vector_module_states.h"
#include "workloads/workload.h"

namespace lbb::testing {

inline void run_serially(Workload& workload, VectorModuleStates& states, int first_step,
                         int steps) {
  for (int s = first_step; s < first_step + steps; ++s) {
    for (int phase = 0; phase < workload.phases(); ++phase)
      for (int m = 0; m < workload.module_count(); ++m)
        workload.run_module(m, s, phase, states.state(m));
    workload.finish_step(s, states);
  }
}

// Builds a registered workload from "k=v" settings over its defaults.
inline std::unique_ptr<Workload> make_workload(std::string_view name,
                                               std::initializer_list<std::string_view> settings) {
  const WorkloadInfo* info = find_workload_kind(name);
  if (!info) throw std::invalid_argument("no workload " + std::string(name));
  Params given;
  for (auto kv : settings) set_param_from_text(info->params, kv, given);
  return info->make(resolve_params(info->params, given));
}

}  // namespace lbb::testing
