// `lbbench run CONFIG`: the command, its options and the invocation's course; its interrupts
// (interrupt_guard.h), the runs every rank shares under mpirun (rank_selection.h), the notes
// before the runs (run_notes.h) and the runs' progress (run_progress.h) are beside it.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "core/text.h"
#include "harness/analysis/comparison_table.h"
#include "harness/analysis/race.h"
#include "harness/base/clock.h"
#include "harness/base/process_world.h"
#include "harness/cli/commands.h"
#include "harness/cli/interrupt_guard.h"
#include "harness/cli/rank_selection.h"
#include "harness/cli/result_options.h"
#include "harness/cli/run_notes.h"
#include "harness/cli/run_progress.h"
#include "harness/config/config_loader.h"
#include "harness/exec/thread_probe.h"
#include "harness/mpi/mpi_session.h"
#include "harness/papers/auto_choice.h"
#include "harness/papers/paper_comparison.h"
#include "harness/results/result_reader.h"
#include "harness/results/result_writer.h"
#include "harness/run/executor_registry.h"
#include "harness/run/provenance.h"
#include "harness/run/run_selection.h"
#include "harness/run/runner.h"

namespace lbb {

namespace {

struct RunOptions {
  std::string config;
  std::string output;
  std::vector<std::string> overrides;
  int repetitions = 0;                 // 0: the config's
  bool no_write = false;               // --no-write: run and print, write no result set
  bool deprecated_no_archive = false;  // --no-archive, its old name (one release)
  bool resume = false;
  std::string slice;  // i/n
  std::string command;
  bool costs = false;
  bool quiet = false;  // no progress lines (failures are still reported)
  ResultOptions results;
};

// A simulated config runs one repetition (run_selection.h), and says so.
void once_if_deterministic(Config& config) {
  const DeterministicCut cut = once_if_deterministic(config.runs);
  if (cut.configurations > 0 && process_world().leader())
    std::cerr << "note: " << cut.configurations
              << " simulated configurations run 1 repetition, not up to " << cut.asked
              << ": nothing in them varies between repetitions, so the table compares their "
                 "values exactly (docs/results.md, \"Verdicts\")\n";
}

// The config with --repetitions applied and --only / --exclude's runs kept.
Config load_selected(const RunOptions& o) {
  std::vector<std::string> overrides = o.overrides;
  if (o.repetitions > 0)
    overrides.push_back("execution.repetitions=" + std::to_string(o.repetitions));
  Config config;
  try {
    config = load_config(o.config, overrides);
  } catch (const ConfigError& e) {
    std::cerr << e.what() << "\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
  std::vector<std::string> labels;
  for (const RunSpec& r : config.runs) labels.push_back(r.balancer.label);
  check_baseline(o.results, labels);
  const Selection& sel = o.results.selection;
  std::erase_if(config.runs,
                [&](const RunSpec& r) { return !sel.selects(r.workload, r.balancer.label); });
  if (config.runs.empty()) {
    std::cerr << "lbbench: --only / --exclude left nothing of " << printable(o.config)
              << " to run\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
  once_if_deterministic(config);
  return config;
}

// The runs this invocation executes (all, a slice, or what the result set lacks) and its writer.
std::vector<PlannedRun> plan_and_open(const RunOptions& o, const Config& config,
                                      const Provenance& prov, std::unique_ptr<ResultWriter>& writer,
                                      double& writing_cpu) {
  const std::string& output = o.output.empty() ? config.output : o.output;
  std::vector<PlannedRun> plan = plan_runs(config.runs), whole;
  try {
    if (o.resume && o.no_write && process_world().leader())
      throw std::invalid_argument("--resume needs a result set: it runs what the set lacks");
    if (!o.slice.empty())  // checked at the option; a race's slices are whole groups
      plan = Race(config.runs).any() ? slice_groups_of(plan, parse_slice(o.slice))
                                     : slice_of(plan, parse_slice(o.slice));
    whole = plan;
    int team = 1;  // the most threads a run of the plan starts (a simulated run starts none)
    for (const auto& r : plan)
      if (!runs_simulated(*r.spec)) team = std::max(team, r.spec->processors);
    if (auto why = team_start_problem(team))
      throw std::invalid_argument(*why + ": lower platform.processors or raise the limit");
    if (!o.no_write) {
      const double open_start = process_cpu_now();
      writer = std::make_unique<ResultWriter>(output, invocation_record(prov, o.command, o.slice));
      if (o.resume) {
        const std::size_t before = plan.size();
        const ResultReader existing(output);
        for (const std::string& p : existing.problems())
          std::cerr << "lbbench: left out: " << printable(p) << "\n";
        plan = missing_from(plan, existing.runs());
        std::cerr << "resume: " << before - plan.size() << " of " << before << " runs already in "
                  << printable(output) << ", " << plan.size() << " to run\n";
      }
      writing_cpu += process_cpu_now() - open_start;
    }
  } catch (const std::exception& e) {
    std::cerr << "lbbench: " << (writer ? "results " : "") << printable(e.what()) << "\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
  if (o.resume && process_world().size > 1) plan = leaders_selection(plan, whole);
  return plan;
}

// Under --resume, the runs the result set already holds of the config's configurations: a race
// judges them with this invocation's.
std::vector<ConfigResult> earlier_runs(const RunOptions& o, const Config& config) {
  if (!o.resume || !process_world().leader()) return {};
  const std::string& output = o.output.empty() ? config.output : o.output;
  std::set<std::string> keys;
  for (const RunSpec& s : config.runs) keys.insert(config_key(s.resolved_yaml).match);
  std::vector<ConfigResult> out = results_from_set(ResultReader(output), Selection{});
  std::erase_if(out, [&](const ConfigResult& c) { return !keys.count(c.match_key); });
  return out;
}

void run(const RunOptions& o) {
  register_auto_choice();  // `dynamic: auto` entries (Zaki, Li & Parthasarathy 1997)
  const Config config = load_selected(o);
  const Provenance prov = gather_provenance();
  // Before any run: later readings include this invocation's own threads.
  const double load_at_start = std::max(0.0, load_average());
  if (const std::string w = openblas_fallback_warning(prov); !w.empty()) std::cerr << w << "\n";
  std::unique_ptr<ResultWriter> writer;
  double writing_cpu = 0;  // opening and closing the result set, outside any run
  const std::vector<PlannedRun> plan = plan_and_open(o, config, prov, writer, writing_cpu);
  const bool leader = process_world().leader();  // under mpirun, rank 0 writes and prints
  if (leader) {
    warn_oversubscribed(plan, prov);
    warn_omp_num_threads(plan);
    warn_timeline_unmeasured(plan);
    warn_trace_recording(plan);
  }
  std::vector<RunOutcome> outcomes;
  {
    const InterruptGuard guard(writer.get(), o.command + (o.resume ? "" : " --resume"));
    if (const Race race(config.runs); race.any()) {
      outcomes = race_all(config.runs, plan,
                          {writer.get(), &prov, load_at_start, o.quiet, earlier_runs(o, config)});
    } else {
      ReferenceCache references;  // each problem's serial reference, shared by its runs
      for (const auto& r : plan) expect_references(references, *r.spec);
      outcomes = run_all(plan, writer.get(), prov, o.quiet, references);
    }
  }
  const double finish_start = process_cpu_now();
  std::string unwritten;  // why the last runs could not be written, if they could not
  try {
    if (writer) writer->finish();  // the last runs' part
  } catch (const ResultError& e) {
    unwritten = e.what();
  }
  writing_cpu += process_cpu_now() - finish_start;
  if (!leader) return;
  const bool table = o.results.format == OutputFormat::kTable;
  if (table) std::cout << "\n";
  print_comparison(
      std::cout,
      compare_configs(results_from_outcomes(outcomes, prov, load_at_start), o.results.baseline),
      o.results.format, o.results.wide);
  if (writer && unwritten.empty())
    (table ? std::cout : std::cerr)
        << "results: " << printable(writer->path()) << " (" << outcomes.size() << " runs added in "
        << writer->parts_written() << " parts, invocation " << prov.invocation << ")\n";
  if (writer && unwritten.empty() && table &&
      !config.expectations.empty())  // the paper's numbers beside ours
    print_paper_comparison(
        std::cout, config,
        runs_of(ResultReader(writer->path()).runs(), config.name, prov.invocation));
  if (o.costs) {
    RunCosts costs;
    for (const auto& r : outcomes) costs += r.costs;
    const double close_start = process_cpu_now();
    writer.reset();  // its closing writes count too
    costs.results += writing_cpu + process_cpu_now() - close_start;
    print_costs(std::cerr, costs, process_cpu_now(), load_average());
  }

  if (!unwritten.empty()) {
    std::cerr << "lbbench: results not written to " << printable(writer->path()) << ": "
              << printable(unwritten) << "\n";
    throw CLI::RuntimeError(kExitFailure);
  }
  bool failed = false, unverified = false;
  for (const auto& r : outcomes) {
    failed |= !r.error.empty();
    unverified |= r.error.empty() && !r.verification.passed;
  }
  if (failed) {
    std::cerr << "lbbench: some runs failed (see above)\n";
    throw CLI::RuntimeError(kExitFailure);
  }
  if (unverified) {
    std::cerr << "lbbench: some results did not verify (see above)\n";
    throw CLI::RuntimeError(kExitVerification);
  }
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* cmd =
      app.add_subcommand("run",
                         "run a config: every balancer, sweep point and "
                         "repetition; print the comparison; add the runs to a result set");
  cmd->add_option("config", o->config, "YAML config file")->required()->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", o->output,
                  "result set (a directory) to add runs to (default: the config's "
                  "output, else results/<name>)")
      ->check([](const std::string& s) { return s.empty() ? "an empty path" : ""; });
  cmd->add_option("--set", o->overrides,
                  "override a config value: key.path=value (repeatable; balancers.+=ENTRY appends; "
                  "a YAML list is a sweep)")
      ->allow_extra_args(false);
  cmd->add_option("--repetitions", o->repetitions,
                  "repetitions of every configuration (as --set execution.repetitions=N)")
      ->check(CLI::Range(1, 10000));
  cmd->add_flag("--no-write", o->no_write, "run and print, write no result set");
  cmd->add_flag("--no-archive", o->deprecated_no_archive, "deprecated: --no-write")->group("");
  cmd->add_flag("--costs", o->costs,
                "print where the invocation's CPU time went: kernels, harness, references, "
                "verification, writing results");
  cmd->add_flag("-q,--quiet", o->quiet,
                "no progress lines (one per run on stderr, with an ETA, by default); a run that "
                "fails is still reported");
  cmd->add_flag("--resume", o->resume,
                "run only what the result set lacks: the runs an interrupted invocation did not "
                "write");
  cmd->add_option("--slice", o->slice,
                  "run slice i/n of the runs (0 <= i < n; run k belongs to slice k mod n; in a "
                  "race, group k), one node of many, all writing the same result set")
      ->check(CLI::Validator(
          [](std::string& text) {
            try {
              parse_slice(text);  // here, so that `--slice ""` is refused, not read as no slice
              return std::string();
            } catch (const std::invalid_argument& e) {
              return std::string(e.what());
            }
          },
          "i/n"));
  add_result_options(*cmd, o->results);
  add_table_options(*cmd, o->results);
  cmd->callback([o] {
    o->command = "lbbench run " + o->config + (o->output.empty() ? "" : " -o " + o->output);
    for (const auto& s : o->overrides) o->command += " --set '" + s + "'";
    if (o->repetitions > 0) o->command += " --repetitions " + std::to_string(o->repetitions);
    if (!o->results.selection.only.empty())
      o->command += " --only '" + o->results.selection.only + "'";
    if (!o->results.selection.exclude.empty())
      o->command += " --exclude '" + o->results.selection.exclude + "'";
    if (!o->slice.empty()) o->command += " --slice " + o->slice;
    if (o->resume) o->command += " --resume";
    // MPI's own threads start in MpiSession: they must inherit SIGINT and SIGTERM blocked, so
    // that InterruptGuard's thread takes them (mpirun sends SIGTERM when another rank ends).
    if (launched_by_mpi()) block_interrupts();
    std::optional<MpiSession> mpi;
    try {
      mpi.emplace();
    } catch (const std::invalid_argument& e) {
      std::cerr << "lbbench: " << printable(e.what()) << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
    if (o->deprecated_no_archive) {  // accepted for one release
      if (process_world().leader())
        std::cerr << "lbbench: --no-archive is deprecated; use --no-write\n";
      o->no_write = true;
    }
    if (const ProcessWorld& world = process_world(); world.size > 1) {
      o->command = "mpirun -np " + std::to_string(world.size) + " " + o->command;
      if (!world.leader()) o->no_write = o->quiet = true;  // the leader writes the set
    }
    run(*o);
  });
}

}  // namespace lbb
