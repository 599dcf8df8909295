// lbbench expect CONFIG [SET]: a paper config's recorded result beside the paper's numbers
// (its `expectations:`), with a verdict per row.
#include <CLI/CLI.hpp>

#include <iomanip>
#include <iostream>
#include <memory>

#include "core/text.h"
#include "harness/cli/commands.h"
#include "harness/cli/left_out.h"
#include "harness/config/config_loader.h"
#include "harness/config/expectations.h"
#include "harness/config/yaml_reader.h"
#include "harness/papers/balance_experiment.h"
#include "harness/papers/paper_comparison.h"

namespace lbb {

namespace {

struct ExpectOptions {
  std::string config, set;  // set: the result set (default: the config's output)
  bool all = false, keys = false;
};

void print_keys() {
  std::cout << "| key | meaning |\n|---|---|\n";
  for (const auto& k : expectation_keys())
    std::cout << "| `" << k.key << "` | " << k.meaning << " |\n";
}

// A balance experiment (Horton 1993's setting) is computed, not read from a result set: false when
// `path` is not one.
bool expect_balance_experiment(const std::string& path) {
  try {
    const std::string text = read_config_text(path);
    if (!is_balance_experiment(text)) return false;
    const BalanceExperiment experiment = load_balance_experiment(text, path);
    print_balance_experiment(std::cout, experiment, run_balance_cases(experiment));
    return true;
  } catch (const ConfigError& e) {
    std::cerr << e.what() << "\n";
  } catch (const std::invalid_argument& e) {
    std::cerr << "lbbench expect: " << printable(path) << ": " << printable(e.what()) << "\n";
  } catch (const ParamError& e) {
    std::cerr << "lbbench expect: " << printable(path) << ": " << printable(e.what()) << "\n";
  }
  throw CLI::RuntimeError(kExitBadInput);
}

void expect(const ExpectOptions& o) {
  if (o.keys) return print_keys();
  if (o.config.empty()) {
    std::cerr << "lbbench expect: name a config (or --keys)\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
  if (expect_balance_experiment(o.config)) return;
  Config config;
  try {
    config = load_config(o.config);
  } catch (const ConfigError& e) {
    std::cerr << e.what() << "\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
  if (config.expectations.empty()) {
    std::cerr << "lbbench expect: " << printable(o.config)
              << ": the config has no expectations: (the paper's numbers to judge against; "
                 "lbbench expect --keys lists their keys)\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
  const std::string path = o.set.empty() ? config.output : o.set;
  try {
    const ResultReader reader(path);
    print_left_out(reader);
    const std::vector<RunRecord>& all = reader.runs();
    std::string latest;
    for (const RunRecord& r : runs_of(all, config.name, ""))
      if (!r.invocation.empty()) latest = r.invocation;
    const std::vector<RunRecord> runs = runs_of(all, config.name, o.all ? "" : latest);
    if (runs.empty()) {
      std::cerr << "lbbench: " << printable(path) << ": no runs of config "
                << printable(config.name) << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
    print_paper_comparison(std::cout, config, runs);
  } catch (const ResultError& e) {
    std::cerr << "lbbench: " << printable(e.what()) << "\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
}

}  // namespace

void add_expect_command(CLI::App& app) {
  auto o = std::make_shared<ExpectOptions>();
  CLI::App* cmd = app.add_subcommand(
      "expect", "a paper config's recorded result beside the paper's numbers, a verdict per row");
  cmd->add_option("config", o->config,
                  "config with expectations: (a balance experiment is computed, not read)");
  cmd->add_option("set", o->set, "result set (default: the config's output)");
  cmd->add_flag("--all", o->all, "every invocation's runs (default: the latest invocation)");
  cmd->add_flag("--keys", o->keys, "print the keys of an expectation row (markdown) and exit");
  cmd->callback([o] { expect(*o); });
}

}  // namespace lbb
