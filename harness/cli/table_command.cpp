// lbbench table ARCHIVE: the comparison of an archive's latest invocation (or all), printed again.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "harness/archive/archive.h"
#include "harness/cli/commands.h"
#include "harness/cli/result_options.h"
#include "harness/comparison_table.h"

namespace lbb {

namespace {

struct TableOptions {
  std::string archive;
  ResultOptions results;
};

}  // namespace

std::vector<ConfigResult> read_results(const std::string& path, const Selection& selection) {
  try {
    const ArchiveReader reader(path);
    std::vector<ConfigResult> results = results_from_archive(reader, selection);
    if (results.empty())
      std::cerr << "lbbench: " << path << ": no runs"
                << (selection.only.empty() && selection.exclude.empty() ? "" : " selected") << "\n";
    return results;
  } catch (const ArchiveError& e) {
    std::cerr << "lbbench: " << e.what() << "\n";
    throw CLI::RuntimeError(kExitBadInput);
  }
}

void add_table_command(CLI::App& app) {
  auto o = std::make_shared<TableOptions>();
  CLI::App* cmd = app.add_subcommand(
      "table", "print an archive's comparison again (its latest invocation unless --all)");
  cmd->add_option("archive", o->archive, "HDF5 archive")->required()->check(CLI::ExistingFile);
  cmd->add_flag("--all", o->results.selection.all_invocations,
                "pool the runs of every invocation in the archive");
  add_result_options(*cmd, o->results);
  cmd->callback([o] {
    const std::vector<ConfigResult> results = read_results(o->archive, o->results.selection);
    if (results.empty()) throw CLI::RuntimeError(kExitBadInput);
    print_comparison(std::cout, compare_configs(results), o->results.format);
  });
}

}  // namespace lbb
