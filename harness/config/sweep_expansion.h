#pragma once
// Expansion of a read config into concrete runs: workloads x their sweeps x platform and
// execution sweeps x balancer entries x their sweeps, with the checks that need a whole run
// (processors against modules, speeds against processors, a balancer's own parameter checks).
#include <vector>

#include "harness/config/balancer_entries.h"
#include "harness/config/config_loader.h"
#include "workloads/workload.h"

namespace lbb {

// The most configurations one config may expand to (each is a RunSpec held in memory, and a
// sweep this large is better split into several configs).
inline constexpr double kMaxConfigurations = 20000;

struct WorkloadEntry {
  const WorkloadInfo* info;
  YAML::Node node;
  std::vector<Axis> axes;
};

// A config read section by section, each value checked on its own.
struct ConfigSections {
  YAML::Node root;
  std::vector<WorkloadEntry> workloads;
  std::vector<Axis> platform;
  std::vector<Axis> execution;
  std::vector<BalancerEntry> balancers;
};

// How many configurations `sections` expands to (a double: sweeps multiply past any integer).
double configuration_count(const ConfigSections& sections);

// Appends every run to config.runs; problems go to `problems`.
void expand_runs(const ConfigSections& sections, Config& config, Problems& problems);

}  // namespace lbb
