#pragma once
// `--set key.path=value`: edits the parsed config before it is checked. The value is YAML (a
// list makes a sweep), read as strictly as a config file.
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "harness/config/config_problems.h"

namespace lbb {

// Applies every override in order; a malformed one throws ConfigError.
void apply_overrides(YAML::Node root, const std::vector<std::string>& overrides,
                     Problems& problems);

}  // namespace lbb
