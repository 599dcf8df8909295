#include "harness/cli/result_options.h"

#include <CLI/CLI.hpp>

#include <map>
#include <regex>

#include "core/text.h"

namespace lbb {

namespace {

// std::regex compiles and matches by recursion, a stack frame or more per character: a pattern
// of 80,000 characters overflowed the stack (SIGSEGV). The names it is matched against are short
// (config names and labels, at most kMaxNameBytes), and so are the patterns that select them.
constexpr std::size_t kMaxPatternBytes = 1000;

std::string regex_problem(const std::string& pattern) {
  if (pattern.size() > kMaxPatternBytes)
    return "a regular expression of " + std::to_string(pattern.size()) + " characters; at most " +
           std::to_string(kMaxPatternBytes);
  try {
    std::regex r(pattern, std::regex::ECMAScript);
    return "";
  } catch (const std::regex_error& e) {
    return "not a regular expression: " + printable(pattern) + " (" + e.what() + ")";
  }
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
