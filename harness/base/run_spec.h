#pragma once
// One concrete run, as a config expands into them (harness/config/config_loader.h): a plain record
// every layer of the harness reads, from the engine up.
#include <string>
#include <vector>

#include "core/params.h"
#include "core/topology.h"
#include "harness/base/load_model.h"
#include "harness/base/platform_emulation.h"
#include "harness/base/record_level.h"
#include "harness/base/sim_settings.h"

namespace lbb {

struct BalancerChoice {
  std::string static_name;  // empty: block initial assignment
  Params static_params;
  std::string dynamic_name;  // empty: never rebalance
  Params dynamic_params;
  std::string schedule_name;  // an in-step schedule (harness/base/schedule.h) instead of balancers
  Params schedule_params;
  // The entry's options for a between-step balancer (harness/config/config_keys.h), resolved;
  // the typed copies below are what the step protocol reads.
  Params options;
  int balance_every = 1;     // decide after every k-th step only
  LoadModelSpec load_model;  // what the balancer decides on
  std::string label;         // what tables and run ids call it
  bool baseline = false;     // the entry the table's ratios divide by (default: the `none` entry)
};

// execution.race: rounds run only while a row's verdict is open (harness/stats/racing.h), up to
// `repetitions` rounds, looking first after `min_repetitions`; the budget caps the invocation.
struct RaceSettings {
  bool on = false;
  int first_look = 4;
  int budget_runs = 0;        // 0: none
  double budget_seconds = 0;  // 0: none
};

struct RunSpec {
  std::string name;  // the config's name
  std::string workload;
  Params workload_params;
  // The resolved platform and execution sections (harness/config/config_keys.h), which the
  // resolved YAML prints; the typed fields below are copies for the code that runs.
  Params platform_params;
  Params execution_params;
  int processors = 1;
  TopologyKind topology = TopologyKind::kChain;
  std::vector<double> speeds;  // per processor, emulated; empty: all 1
  ExternalLoad external_load;  // emulated transient load (Zaki, Li & Parthasarathy 1997)
  std::string mode = "real";
  int steps = 1;
  int warmup = 0;
  int repetitions = 1;
  double equivalence = 0.05;  // the verdicts' delta (harness/stats/verdict.h)
  RaceSettings race;
  // The tables the run writes (execution.record); "auto" is the executor's default, which
  // expanding the config puts here (run/executor_registry.h).
  RecordLevel record = RecordLevel::kProcs;
  bool timeline = false;  // execution.timeline: measure each processor's spans
  // As configured, until expanding the config puts the chosen one (run/executor_registry.h)
  std::string executor = "auto";
  SimSettings sim;  // the simulate executor's execution.sim_* and replay_* keys
  BalancerChoice balancer;
  std::string sweep_label;    // the swept values of this run, e.g. "processors=8 sd=1"
  std::string resolved_yaml;  // the run's fully resolved config, recorded with it
};

}  // namespace lbb
