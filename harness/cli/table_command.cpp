// lbbench table SET: the comparison of a result set's runs, printed again.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "core/text.h"
#include "harness/analysis/comparison_table.h"
#include "harness/cli/commands.h"
#include "harness/cli/result_options.h"
#include "harness/results/result_reader.h"

namespace lbb {

namespace {

struct TableOptions {
  std::string set;
  ResultOptions results;
};

}  // namespace

void require_runs(const ResultReader& reader, const std::string& path) {
  if (reader.runs().empty()) throw ResultError(path + ": no runs");
}

std::vector<ConfigResult> read_results(const std::string& path, const Selection& selection) {
  try {
    const ResultReader reader(path);
    for (const std::string& p : reader.problems())
      std::cerr << "lbbench: left out: " << printable(p) << "\n";
    ReadCount read;
    std::vector<ConfigResult> results = results_from_set(reader, selection, &read);
    std::cerr << printable(path) << ": " << read.runs << " runs of " << read.invocations
              << " invocations read from " << reader.parts_read() << " parts"
              << (reader.problems().empty()
                      ? ""
                      : " (" + std::to_string(reader.problems().size()) + " problems above)")
              << "\n";
    if (results.empty())
      std::cerr << "lbbench: " << printable(path) << ": no runs"
                << (selection.only.empty() && selection.exclude.empty() &&
                            selection.invocation.empty()
                        ? ""
                        : " selected")
                << "\n";
    return results;
  } catch (const ResultError& e) {
    std::cerr << "lbbench: " << printable(e.what()) << "\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
}

void add_table_command(CLI::App& app) {
  auto o = std::make_shared<TableOptions>();
  CLI::App* cmd = app.add_subcommand(
      "table", "print the comparison of a result set's runs again (every invocation by default)");
  cmd->add_option("set", o->set, "result set (a directory of parts, or one part)")->required();
  add_result_options(*cmd, o->results, true);
  add_table_options(*cmd, o->results);
  cmd->callback([o] {
    // Every run of the chosen invocations is compared, and --only / --exclude pick the rows
    // shown after: a ratio against a baseline they leave out is still the ratio.
    Selection all = o->results.selection;
    all.only.clear();
    all.exclude.clear();
    const std::vector<ConfigResult> results = read_results(o->set, all);
    if (results.empty()) throw CLI::RuntimeError(kExitBadInput);
    std::vector<std::string> labels;
    for (const ConfigResult& r : results) labels.push_back(r.label);
    check_baseline(o->results, labels);
    Comparison comparison = compare_configs(results, o->results.baseline);
    keep_selected(comparison, o->results.selection);
    if (comparison.rows.empty()) {
      std::cerr << "lbbench: " << printable(o->set) << ": --only / --exclude left no runs\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
    print_comparison(std::cout, comparison, o->results.format, o->results.wide);
  });
}

}  // namespace lbb
