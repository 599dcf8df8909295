#pragma once
// Reading the `balancers:` list: each entry names a static and/or dynamic balancer, or an
// in-step schedule, with their parameters (each may be swept) and an optional label.
#include <optional>
#include <string>
#include <vector>

#include "harness/config/config_values.h"

namespace lbb {

struct BalancerEntry {
  YAML::Node node;
  std::string static_name, dynamic_name, schedule_name;
  std::string label;  // as given, else the balancers' names ("static+dynamic"); unique in a config
  std::vector<Axis> static_axes, dynamic_axes, schedule_axes;
  std::vector<Axis> option_axes;  // balancer_option_specs(): balance_every, model, model_window
  bool baseline = false;          // `baseline: true`: the entry the table's ratios divide by
};

// Empty when the entry is unusable (its problems are in `problems`).
std::optional<BalancerEntry> read_balancer(const YAML::Node& node, Problems& problems);

}  // namespace lbb
