#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "core/text.h"
#include "harness/cli/commands.h"
#include "harness/config/config_loader.h"
#include "harness/results/h5_table.h"
#include "harness/results/part_file.h"
#include "harness/run/run_selection.h"

namespace lbb {

void add_validate_command(CLI::App& app) {
  auto config = std::make_shared<std::string>();
  auto overrides = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand("validate",
                                     "check a config and list the runs it expands "
                                     "to, running nothing");
  cmd->add_option("config", *config, "YAML config file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--set", *overrides, "override a config value: key.path=value")
      ->allow_extra_args(false);
  cmd->callback([config, overrides] {
    try {
      Config c = load_config(*config, *overrides);
      once_if_deterministic(c.runs);  // as run does
      int total = 0, budget = 0;
      bool race = false;
      for (const auto& r : c.runs) {
        total += r.repetitions;
        race |= r.race.on;
        budget = std::max(budget, r.race.budget_runs);
      }
      if (race && budget > 0) total = std::min(total, budget);
      try {
        std::error_code ec;
        if (std::filesystem::exists(c.output, ec)) require_set_directory(c.output, false);
      } catch (const ResultError& e) {
        std::cerr << "lbbench: output " << printable(e.what()) << "\n";
        throw CLI::RuntimeError(kExitBadInput);
      }
      std::cout << printable(*config) << ": OK, " << c.runs.size() << " configurations, "
                << (race ? "a race of at most " : "") << total << " runs, results "
                << printable(c.output) << "\n";
      for (const auto& r : c.runs)
        std::cout << "  " << r.workload << " P=" << r.processors << " " << topology_name(r.topology)
                  << " " << printable(r.balancer.label)
                  << (r.sweep_label.empty() ? "" : " [" + printable(r.sweep_label) + "]") << " x"
                  << r.repetitions << "\n";
    } catch (const ConfigError& e) {
      std::cerr << e.what() << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
  });
}

}  // namespace lbb
