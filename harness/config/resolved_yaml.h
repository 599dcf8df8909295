#pragma once
// The resolved YAML recorded with each run: the run's complete config, every default filled in,
// printed from the parameter specs (harness/config/config_keys.h and the registries' specs).
#include <string>

#include "harness/config/config_loader.h"

namespace lbb {

std::string resolved_yaml(const RunSpec& run, const std::string& output);

}  // namespace lbb
