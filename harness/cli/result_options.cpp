#include "harness/cli/result_options.h"

#include <CLI/CLI.hpp>

#include <re2/re2.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "core/text.h"
#include "harness/cli/commands.h"

namespace lbb {

namespace {

// RE2 matches in time linear in the text and refuses a pattern whose program outgrows its memory
// bound, where std::regex backtracked exponentially or overflowed the stack on long patterns.
std::string regex_problem(const std::string& pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  const RE2 re(pattern, options);
  if (re.ok()) return "";
  return "not a regular expression: " + printable(pattern.substr(0, 200)) + " (" + re.error() + ")";
}

}  // namespace

void add_result_options(CLI::App& cmd, ResultOptions& o, bool reads_sets) {
  static const std::map<std::string, OutputFormat> formats = {
      {"table", OutputFormat::kTable}, {"csv", OutputFormat::kCsv}, {"json", OutputFormat::kJson}};
  cmd.add_option("--format", o.format, "table (default), csv, or json: a list of rows")
      ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case));
  const CLI::Validator is_regex(regex_problem, "REGEX");
  cmd.add_option("--only", o.selection.only,
                 "keep only balancer labels or workload kinds matching this regular expression")
      ->check(is_regex);
  cmd.add_option("--exclude", o.selection.exclude,
                 "drop balancer labels and workload kinds matching this regular expression")
      ->check(is_regex);
  if (reads_sets)
    cmd.add_option("--invocation", o.selection.invocation,
                   "read only this invocation's runs (an id, or latest); default: every run");
}

void add_table_options(CLI::App& cmd, ResultOptions& o) {
  cmd.add_flag("--wide", o.wide,
               "every column: both clocks with intervals, range and cv, efficiency, imbalance, "
               "migrations, MB moved, balance time, verification and the workload's counts per "
               "row (default: a compact table of the ranking clock)");
  cmd.add_option("--baseline", o.baseline,
                 "the balancer label each group's ratios are taken against (default: the "
                 "config's `baseline: true` entry, else `none`)");
}

void check_baseline(const ResultOptions& o, const std::vector<std::string>& labels) {
  if (o.baseline.empty() || std::find(labels.begin(), labels.end(), o.baseline) != labels.end())
    return;
  std::vector<std::string> known = labels;
  std::sort(known.begin(), known.end());
  known.erase(std::unique(known.begin(), known.end()), known.end());
  std::string list;
  for (const auto& l : known) list += (list.empty() ? "" : ", ") + l;
  std::cerr << "lbbench: --baseline " << printable(o.baseline)
            << ": no balancer has that label (labels: " << printable(list) << ")\n";
  throw CLI::RuntimeError(kExitBadInput);
}

}  // namespace lbb
