// lbbench compare A B: two result sets' runs matched by resolved configuration.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "harness/analysis/set_comparison.h"
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
      "match two result sets' runs by resolved configuration; per match the ratio of medians B/A "
      "with its interval and the Mann-Whitney p; list the runs without a match");
  cmd->add_option("a", o->a, "result set A (before)")->required();
  cmd->add_option("b", o->b, "result set B (after)")->required();
  add_result_options(*cmd, o->results, true);
  cmd->callback([o] {
    const std::vector<ConfigResult> a = read_results(o->a, o->results.selection);
    const std::vector<ConfigResult> b = read_results(o->b, o->results.selection);
    // read_results said which set has no runs: nothing to compare.
    if (a.empty() || b.empty()) throw CLI::RuntimeError(kExitBadInput);
    print_set_comparison(std::cout, compare_sets(a, b), o->a, o->b, o->results.format);
  });
}

}  // namespace lbb
