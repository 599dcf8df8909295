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
  cmd->callback([o] {
    const std::vector<ConfigResult> results = read_results(o->set, o->results.selection);
    if (results.empty()) throw CLI::RuntimeError(kExitBadInput);
    print_comparison(std::cout, compare_configs(results), o->results.format);
  });
}

}  // namespace lbb
