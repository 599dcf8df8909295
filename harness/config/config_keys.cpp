#include "harness/config/config_keys.h"

#include "harness/base/load_model.h"
#include "harness/config/processor_pattern.h"
#include "harness/formats/assignment_file.h"
#include "harness/run/executor_registry.h"

namespace lbb {

std::span<const KeyDoc> top_level_table() {
  static const KeyDoc keys[] = {
      {"name", "the config's name (default: the file's stem); names the result set"},
      {"workload",
       "{ kind: NAME, param: value, ... }, or a list of such maps (one config, several "
       "workloads); kinds and parameters below"},
      {"platform", "the processors and their emulated speeds and load (keys below)"},
      {"execution", "steps, repetitions, the executor and the simulator's charges (keys below)"},
      {"balancers",
       "a list of entries: { static: NAME }, { dynamic: NAME }, both, or { schedule: NAME }, "
       "each with its parameters (keys below)"},
      {"output", "the result set (a directory) runs are added to (default: results/NAME)"},
      {"expectations", "a paper's numbers beside the measured ones (row keys below)"},
  };
  return keys;
}

const std::vector<std::string>& top_level_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const KeyDoc& k : top_level_table()) out.push_back(k.key);
    return out;
  }();
  return keys;
}

std::span<const KeyDoc> balancer_entry_keys() {
  static const KeyDoc keys[] = {
      {"static", "a static balancer: the partition the run starts from"},
      {"dynamic", "a dynamic balancer: moves modules between steps (may follow a static:)"},
      {"schedule", "an in-step loop schedule (no static: or dynamic: in the same entry)"},
      {"label", "the row's name in the table (default: static+dynamic, or the schedule)"},
      {"baseline", "true: the row other rows' ratios are taken against (default: none)"},
      {"assignment",
       "{ static: prescribed } only, instead of owners: FILE, a vt LBDatafile set (its first "
       "phase's nodes) or text of one processor per module"},
  };
  return keys;
}

std::span<const FileParamKey> file_param_keys() {
  static const FileParamKey keys[] = {{"assignment", "prescribed", "owners", &read_assignment}};
  return keys;
}

const FileParamKey* find_file_param_key(const std::string& key) {
  for (const FileParamKey& k : file_param_keys())
    if (key == k.key) return &k;
  return nullptr;
}

bool is_balancer_entry_key(const std::string& key) {
  for (const KeyDoc& k : balancer_entry_keys())
    if (key == k.key) return true;
  return false;
}

std::span<const ParamSpec> balancer_option_specs() {
  static const std::vector<ParamSpec> specs = {
      int_param("balance_every", 1,
                "k: a between-step balancer decides after every k-th step only (steps k, 2k, "
                "..., counted from 1 with the warm-up's), as Charm++'s LB period and vt's LB "
                "interval; 1: after every step",
                1, 1e9),
      string_param("model", "last",
                   "what a between-step balancer decides on instead of the last step's measured "
                   "costs (vt's load models): last; persistence, the median of the last "
                   "model_window steps (vt's PersistenceMedianLastN); moving_average, their mean; "
                   "linear, their least-squares trend one step on (vt's LinearModel)",
                   load_model_names()),
      int_param("model_window", 4, "steps persistence, moving_average and linear read, at most", 1,
                1000),
  };
  return specs;
}

void apply_options(const Params& given, BalancerChoice& b) {
  b.options = resolve_params(balancer_option_specs(), given);
  b.balance_every = static_cast<int>(b.options.integer("balance_every"));
  b.load_model = {parse_load_model(b.options.text("model")),
                  static_cast<int>(b.options.integer("model_window"))};
}

std::span<const ParamSpec> platform_specs() {
  static const std::vector<ParamSpec> specs = {
      required(int_param("processors", 1, "processors (OpenMP threads)", 1, 4096)),
      string_param("topology", "chain", "processor graph for neighbour-restricted balancers",
                   {"chain", "ring", "mesh2d", "hypercube", "complete"}),
      reals_param("speeds", {},
                  "relative speed per processor in (0, 1]: one per processor, or a pattern that "
                  "follows the processor count, e.g. last:0.5 (the last at half speed, the rest "
                  "1), first2:0.25, last50%:0.5, all:0.5,first:1 (later items override; K% rounds "
                  "up); empty: all 1. Emulated by busy work after each module",
                  1e-3, 1.0),
      reals_param("speed_pool", {},
                  "relative speeds of a pool of processors in (0, 1], fastest first; a run on P "
                  "processors has the first P (Franklin & Govindan 1995, eq. 17), so a "
                  "processor sweep keeps its machines; instead of speeds",
                  1e-3, 1.0),
      real_param("external_load", 0.0,
                 "m: largest transient external load level; a processor under load L runs at "
                 "speed s / (1 + L) (Zaki, Li & Parthasarathy 1997); 0: none. A number loads "
                 "every processor; a pattern as for speeds loads only the processors it names, "
                 "e.g. last:1.0 (the rest 0)",
                 0.0, 1000.0),
      real_param("load_persist_s", 0.2, "d: seconds one external load level lasts", 1e-3),
      int_param("load_seed", 1, "seed of the external load levels", 0),
  };
  return specs;
}

const PerProcessor* per_processor(const ParamSpec& spec) {
  static const std::pair<const char*, PerProcessor> keys[] = {{"speeds", {1.0}},
                                                              {"external_load", {0.0}}};
  for (const auto& [name, key] : keys)
    if (&spec == find_spec(platform_specs(), name)) return &key;
  return nullptr;
}

Params resolve_platform(const Params& given) {
  Params numbers, patterns;  // a number key's pattern stays text until P is known
  for (const auto& [name, value] : given.values()) {
    const ParamSpec* spec = find_spec(platform_specs(), name);
    const bool pattern = spec && spec->type != ParamType::kRealList && per_processor(*spec) &&
                         std::holds_alternative<std::string>(value);
    (pattern ? patterns : numbers).set(name, value);
  }
  Params out = resolve_params(platform_specs(), numbers);
  for (const auto& [name, value] : patterns.values()) out.set(name, value);
  return out;
}

namespace {

// A per-processor number key's value on each processor: its pattern expanded, or the number.
std::vector<double> processor_values(const Params& platform, const std::string& key) {
  const ParamSpec& spec = *find_spec(platform_specs(), key);
  const int processors = static_cast<int>(platform.integer("processors"));
  const ParamValue& value = platform.values().at(key);
  if (const auto* pattern = std::get_if<std::string>(&value))
    return expand_processor_pattern(*pattern, processors, per_processor(spec)->unnamed);
  return std::vector<double>(static_cast<std::size_t>(processors), platform.real(key));
}

}  // namespace

std::span<const ParamSpec> execution_specs() {
  static const std::vector<ParamSpec> specs = {
      string_param("mode", "real", "real: threads execute the kernels", {"real"}),
      int_param("steps", 50, "recorded steps", 1, 1e9),
      int_param("warmup", 0, "steps run first and not recorded", 0, 1e9),
      int_param("repetitions", 1,
                "runs of each configuration, in rounds (one of every configuration each); with "
                "race, the most rounds; `auto` is race: true with 20",
                1, 10000),
      bool_param("race", false,
                 "run rounds only while a row's verdict is open: a decided row leaves the race "
                 "(Birattari et al. 2002); looks after min_repetitions rounds, then about 1.5 "
                 "times as many each, each at 5 % / looks"),
      int_param("min_repetitions", 4, "race: rounds before the first look", 2, 10000),
      int_param("budget", 0, "race: the most runs this invocation starts; 0: no limit", 0, 1e9),
      real_param("budget_seconds", 0.0,
                 "race: no round starts that would end past this many seconds of runs "
                 "(estimated from the runs so far); 0: no limit",
                 0.0, 1e9),
      real_param("equivalence", 0.05,
                 "delta: a row whose ratio to the group's best is shown within [1 - delta, "
                 "1 + delta] is equivalent to it (docs/results.md, \"Verdicts\")",
                 1e-6, 1.0),
      string_param("record", "auto",
                   "the tables a run writes, each level with every coarser one's: runs (its "
                   "row), steps (a row a step), procs (a row per processor and step), modules "
                   "(a row per module, phase and step: cost and owner); auto: the executor's "
                   "default (`lbbench list`, executors), chosen so that writing costs at most 2 "
                   "% of a shipped config's CPU (docs/results.md, \"Record levels\")",
                   {"auto", "runs", "steps", "procs", "modules"}),
      bool_param("timeline", false,
                 "measure each processor's timeline: the wall-clock start and end of every module "
                 "execution, decision, copy and wait, as the spans table (threads and MPI ranks; "
                 "docs/results.md, \"Timeline\"); `lbbench export --format chrome` draws it"),
      string_param("executor", "auto", "auto: the first of the executor table that runs the entry",
                   executor_choices()),
      // The simulator's (harness/base/sim_settings.h): what a real machine would charge.
      real_param(
          "sim_latency", 0.0,
          "simulate: s charged per message: a migrated module, a loop schedule's chunk request",
          0.0, 1e6),
      real_param("sim_bandwidth", 0.0, "simulate: B/s at which migrated bytes are charged; 0: free",
                 0.0, 1e18),
      string_param("sim_decision", "measured",
                   "simulate: a decision costs the balancer's own CPU time (measured) or "
                   "sim_decision_seconds (modelled)",
                   {"measured", "modelled"}),
      real_param("sim_decision_seconds", 0.0, "simulate: s a modelled decision costs", 0.0, 1e6),
      real_param("sim_contention", 0.0,
                 "simulate: c, a busy processor runs 1 + c (n - 1) times slower while n are busy "
                 "(`lbbench simulate --calibrate` fits it from real runs); 0: none",
                 0.0, 100.0),
      string_param("sim_exchange", "none",
                   "simulate: all: each step every processor holding modules first receives "
                   "every other holder's modules (a message each at sim_latency, their bytes at "
                   "sim_bandwidth), as an all-to-all exchange of state (Franklin & Govindan "
                   "1995's N-body); none: only migrations move data",
                   {"none", "all"}),
      bool_param("sim_async", false,
                 "simulate: no barrier between steps (Iqbal, Saltz & Bokhari 1986), as async; "
                 "always so under the predictive balancer"),
      string_param("replay_set", "",
                   "simulate: result set whose module/cost a real workload's simulation replays"),
      string_param("replay_run", "",
                   "simulate: run id in replay_set (empty: its first complete run of the "
                   "workload recorded with record: modules)"),
      int_param("replay_processors", 0,
                "simulate: processors of the recorded run replayed (0: the simulation's own); "
                "its costs are nominal per module, so a run of any P serves every P",
                0, 4096),
  };
  return specs;
}

void apply_platform(const Params& platform, RunSpec& run) {
  run.platform_params = platform;
  run.processors = static_cast<int>(platform.integer("processors"));
  run.topology = *parse_topology(platform.text("topology"));
  run.speeds = platform.reals("speeds");
  if (const std::vector<double> pool = platform.reals("speed_pool");
      run.speeds.empty() && pool.size() >= static_cast<std::size_t>(run.processors))
    run.speeds.assign(pool.begin(), pool.begin() + run.processors);
  run.external_load.max = processor_values(platform, "external_load");
  run.external_load.persist_s = platform.real("load_persist_s");
  run.external_load.seed = static_cast<std::uint64_t>(platform.integer("load_seed"));
}

void apply_execution(const Params& execution, RunSpec& run) {
  run.execution_params = execution;
  run.mode = execution.text("mode");
  run.steps = static_cast<int>(execution.integer("steps"));
  run.warmup = static_cast<int>(execution.integer("warmup"));
  run.repetitions = static_cast<int>(execution.integer("repetitions"));
  run.equivalence = execution.real("equivalence");
  run.race.on = execution.boolean("race");
  run.race.first_look = static_cast<int>(execution.integer("min_repetitions"));
  run.race.budget_runs = static_cast<int>(execution.integer("budget"));
  run.race.budget_seconds = execution.real("budget_seconds");
  // auto stays the placeholder until the config's expansion has chosen the executor.
  run.record = parse_record_level(execution.text("record")).value_or(RecordLevel::kProcs);
  run.timeline = execution.boolean("timeline");
  run.executor = execution.text("executor");
  run.sim.latency = execution.real("sim_latency");
  run.sim.bandwidth = execution.real("sim_bandwidth");
  run.sim.measured_decisions = execution.text("sim_decision") == "measured";
  run.sim.decision_seconds = execution.real("sim_decision_seconds");
  run.sim.contention = execution.real("sim_contention");
  run.sim.exchange_all = execution.text("sim_exchange") == "all";
  run.sim.replay_set = execution.text("replay_set");
  run.sim.replay_run = execution.text("replay_run");
  run.sim.replay_processors = static_cast<int>(execution.integer("replay_processors"));
  run.sim.asynchronous = execution.boolean("sim_async");
}

}  // namespace lbb
