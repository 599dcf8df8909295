#pragma once
// Reading typed parameter values from YAML nodes: one value, or a list of values (a sweep).
#include <yaml-cpp/yaml.h>

#include <span>
#include <string>
#include <vector>

#include "core/params.h"
#include "harness/config/config_problems.h"

namespace lbb {

// The most values one swept key may list; sweeps multiply, and expansion bounds their product.
inline constexpr std::size_t kMaxSweepValues = 10000;

// One configurable value that may be swept: all its values, each with its YAML node.
struct Axis {
  std::string key;
  std::vector<ParamValue> values;
  std::vector<YAML::Node> nodes;
};

// Reads one parameter: a value, or a list of values (a sweep). Problems go to `problems`.
Axis read_axis(const ParamSpec& spec, const YAML::Node& node, Problems& problems);

// "a, b, c": the names of `specs` after `extra`.
std::string known_keys(std::span<const ParamSpec> specs, std::vector<std::string> extra = {});

// Reads a section whose keys are all parameters of `specs` (except `skip` keys): the given
// values as axes; unknown and missing required keys are problems.
std::vector<Axis> read_section(const YAML::Node& section, const std::string& name,
                               std::span<const ParamSpec> specs,
                               const std::vector<std::string>& skip, Problems& problems);

}  // namespace lbb
