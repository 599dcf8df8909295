#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

#include "core/text.h"
#include "harness/archive/archive.h"
#include "harness/cli/commands.h"
#include "harness/comparison_table.h"
#include "harness/config/run_spec.h"
#include "harness/provenance.h"
#include "harness/run_selection.h"
#include "harness/runner.h"

namespace lbb {

namespace {

struct RunOptions {
  std::string config;
  std::string output;
  std::vector<std::string> overrides;
  bool no_archive = false;
  bool resume = false;
  std::string slice;  // i/n
  std::string command;
};

void run(const RunOptions& o) {
  Config config;
  try {
    config = load_config(o.config, o.overrides);
  } catch (const ConfigError& e) {
    std::cerr << e.what() << "\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
  const std::string output = o.output.empty() ? config.output : o.output;
  const Provenance prov = gather_provenance();
  if (const std::string w = openblas_fallback_warning(prov); !w.empty()) std::cerr << w << "\n";
  std::unique_ptr<ArchiveWriter> archive;
  std::vector<PlannedRun> plan = plan_runs(config.runs);
  try {
    if (o.resume && o.no_archive)
      throw std::invalid_argument("--resume needs an archive: it runs what the archive lacks");
    if (!o.slice.empty()) plan = slice_of(plan, parse_slice(o.slice));
    if (!o.no_archive) {
      archive =
          std::make_unique<ArchiveWriter>(output, invocation_record(prov, o.command, o.slice));
      if (o.resume) {
        const std::size_t before = plan.size();
        plan = missing_from(plan, ArchiveReader(output).runs());
        std::cerr << "resume: " << before - plan.size() << " of " << before << " runs already in "
                  << output << ", " << plan.size() << " to run\n";
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "lbbench: " << (archive ? "archive " : "") << e.what() << "\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
  int max_p = 0;
  const int total = static_cast<int>(plan.size());
  for (const auto& r : plan) max_p = std::max(max_p, r.spec->processors);
  if (max_p > prov.available) {
    std::cerr << "note: up to " << max_p << " processors (threads) on " << prov.available
              << " available cores: oversubscribed (archived as oversubscribed = 1); compare "
                 "the modelled makespan, which is taken from thread CPU time\n";
    const bool self_scheduled =
        std::any_of(config.runs.begin(), config.runs.end(), [&](const RunSpec& r) {
          return !r.balancer.schedule_name.empty() && r.processors > prov.available;
        });
    if (self_scheduled)
      std::cerr << "note: in-step schedules hand work to whichever threads hold a core, so on "
                   "an oversubscribed node their per-step busy times (and modelled makespan) "
                   "reflect the host's free cores, not P processors; compare them with "
                   "balancers on a node with P free cores\n";
  }

  std::vector<RunOutcome> outcomes;
  outcomes.reserve(total);
  int n = 0;
  for (const auto& [spec_ptr, rep] : plan) {
    const RunSpec& spec = *spec_ptr;
    ++n;
    std::cerr << "[" << n << "/" << total << "] " << spec.workload << " P=" << spec.processors
              << " " << spec.balancer.label
              << (spec.sweep_label.empty() ? "" : " " + spec.sweep_label);
    if (spec.repetitions > 1) std::cerr << " rep " << rep + 1 << "/" << spec.repetitions;
    std::cerr << std::flush;
    outcomes.push_back(execute_run(spec, rep, archive.get(), prov));
    const RunOutcome& r = outcomes.back();
    if (!r.error.empty())
      std::cerr << "  FAILED: " << r.error << "\n";
    else if (!r.verification.passed)
      std::cerr << "  VERIFICATION FAILED: " << r.verification.detail << "\n";
    else
      std::cerr << "  " << format_number(r.run_wall, 3) << " s, verified\n";
  }
  std::cout << "\n";
  print_comparison(std::cout, outcomes);
  if (archive) std::cout << "archive: " << archive->path() << " (" << total << " runs added)\n";

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
  CLI::App* cmd = app.add_subcommand("run",
                                     "run a config: every balancer, sweep point and "
                                     "repetition; print the comparison; archive it");
  cmd->add_option("config", o->config, "YAML config file")->required()->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", o->output,
                  "HDF5 archive to add runs to (default: the config's "
                  "output, else results/<name>.h5)");
  cmd->add_option("--set", o->overrides,
                  "override a config value: key.path=value (repeatable; "
                  "a YAML list is a sweep)")
      ->allow_extra_args(false);
  cmd->add_flag("--no-archive", o->no_archive, "run and print, write no archive");
  cmd->add_flag("--resume", o->resume,
                "run only what the archive lacks: runs missing or left partial by an "
                "interrupted invocation");
  cmd->add_option("--slice", o->slice,
                  "run slice i/n of the runs (0 <= i < n; run k belongs to slice k mod n), "
                  "one node of many; see lbbench merge");
  cmd->callback([o] {
    o->command = "lbbench run " + o->config + (o->output.empty() ? "" : " -o " + o->output);
    for (const auto& s : o->overrides) o->command += " --set '" + s + "'";
    if (!o->slice.empty()) o->command += " --slice " + o->slice;
    if (o->resume) o->command += " --resume";
    run(*o);
  });
}

}  // namespace lbb
