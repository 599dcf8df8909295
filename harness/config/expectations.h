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
  std::string paper_text;       // as typed: its last digit gives the printed precision
  // Only the order the paper states (its figure's values are not in the text): judged by its
  // trend group alone.
  std::optional<double> rank;
  std::optional<double> tolerance;  // stated half-width in the metric's units
  std::string tolerance_source;     // where a stated tolerance comes from
  std::string bound;                // "upper" / "lower": the paper's number is a bound, not a value
  std::string trend;                // a group whose rows' order is tested against the paper's
  // A claim over a swept key instead of a value: the metric is non-increasing (or
  // non-decreasing) over the sampled values of `over` (Iqbal, Saltz & Bokhari 1986, Figs. 6-7).
  std::string monotone;   // "non_increasing" / "non_decreasing"
  std::string over;       // the swept key (a sweep's key, a run attribute or a balancer parameter)
  std::string not_built;  // why the row cannot be measured (printed as its verdict)
  std::string context;    // why the row holds by construction: shown, never counted
  std::string open_choice;  // what the paper leaves open: judged, not counted as a reproduction
  std::string cause;        // why it differs: "setting: ...", "paper: ...", "implementation: ..."
  std::string where_in_config;  // file:line:col of the row
};

// The half-width within which a measured value equals the paper's: the stated tolerance, else
// half a unit of the paper's last printed digit (3.07: 0.005).
double value_tolerance(const Expectation& e);

// Half a unit of the last digit of a number as printed ("3.07" -> 0.005, "16" -> 0.5,
// "2.5e3" -> 50); nullopt when the text is not a plain number.
std::optional<double> printed_half_unit(const std::string& text);

// Reads `expectations:` (absent: none). Problems are reported with their position.
std::vector<Expectation> read_expectations(const YAML::Node& root, Problems& problems);

}  // namespace lbb
