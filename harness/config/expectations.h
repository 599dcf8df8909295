#pragma once
// A paper's numbers typed into a config (`expectations:`), so that a run prints its result
// beside them with a verdict per row (harness/papers/expectation_verdicts.h).
#include <yaml-cpp/yaml.h>

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "harness/config/config_problems.h"

namespace lbb {

// The keys of one expectation row, described once: the reader checks against this table and
// `lbbench expect --keys` prints it.
struct ExpectationKey {
  const char* key;
  const char* meaning;
};
std::span<const ExpectationKey> expectation_keys();

using Selector = std::vector<std::pair<std::string, std::string>>;  // key = value, all must hold

struct Expectation {
  std::string row;  // the paper's name for it ("Table 3, w* = 1.2 w~")
  Selector where;
  std::string metric;
  Selector relative_to;         // non-empty: the value is median(there) / median(here)
  std::optional<double> paper;  // the paper's number
  // Only the order the paper states (its figure's values are not in the text): judged by its
  // trend group alone.
  std::optional<double> rank;
  double tolerance = 0.10;      // |measured - paper| <= tolerance x |paper|: exact
  std::string bound;            // "upper" / "lower": the paper's number is a bound, not a value
  std::string trend;            // rows of one trend group must keep the paper's order
  std::string not_built;        // why the row cannot be measured (printed as its verdict)
  std::string where_in_config;  // file:line:col of the row
};

// Reads `expectations:` (absent: none). Problems are reported with their position.
std::vector<Expectation> read_expectations(const YAML::Node& root, Problems& problems);

}  // namespace lbb
