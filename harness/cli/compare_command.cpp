// lbbench compare A B: two archives' runs matched by resolved configuration.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "harness/archive_comparison.h"
#include "harness/cli/commands.h"
#include "harness/cli/result_options.h"

namespace lbb {

namespace {

struct CompareOptions {
  std::string a, b;
  ResultOptions results;
};

}  // namespace

void add_compare_command(CLI::App& app) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "match two archives' runs by resolved configuration; per match the ratio of medians B/A "
      "with its interval and the Mann-Whitney p; list the runs without a match");
  cmd->add_option("a", o->a, "HDF5 archive A (before)")->required()->check(CLI::ExistingFile);
  cmd->add_option("b", o->b, "HDF5 archive B (after)")->required()->check(CLI::ExistingFile);
  cmd->add_flag("--all", o->results.selection.all_invocations,
                "pool every invocation of each archive (else each archive's latest)");
  add_result_options(*cmd, o->results);
  cmd->callback([o] {
    const std::vector<ConfigResult> a = read_results(o->a, o->results.selection);
    const std::vector<ConfigResult> b = read_results(o->b, o->results.selection);
    if (a.empty() && b.empty()) throw CLI::RuntimeError(kExitBadInput);
    print_archive_comparison(std::cout, compare_archives(a, b), o->a, o->b, o->results.format);
  });
}

}  // namespace lbb
