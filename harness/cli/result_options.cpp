#include "harness/cli/result_options.h"

#include <CLI/CLI.hpp>

#include <re2/re2.h>

#include <map>

#include "core/text.h"

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

}  // namespace lbb
