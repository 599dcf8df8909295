#pragma once
// The one description of every config key outside the workload and balancer registries: the
// top-level keys and the platform and execution sections. Reading, checking, `--set` and the
// resolved YAML archived with each run all go by these tables. A new platform or execution key
// is one line here plus its use (apply_platform / apply_execution, then whatever reads it).
#include <span>
#include <string>
#include <vector>

#include "core/params.h"
#include "harness/config/run_spec.h"

namespace lbb {

// The top-level keys, in the order the resolved YAML writes them.
const std::vector<std::string>& top_level_keys();

std::span<const ParamSpec> platform_specs();
std::span<const ParamSpec> execution_specs();

// Copies resolved (complete, checked) section parameters into the run's typed fields.
void apply_platform(const Params& platform, RunSpec& run);
void apply_execution(const Params& execution, RunSpec& run);

}  // namespace lbb
