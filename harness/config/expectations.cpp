#include "harness/config/expectations.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

namespace lbb {

std::span<const ExpectationKey> expectation_keys() {
  static const ExpectationKey keys[] = {
      {"row", "the paper's name for the row (printed first)"},
      {"where",
       "map of key: value every counted run must match: balancer (label), workload "
       "(kind), processors, or a swept key (as the run's sweep prints it); the runs "
       "matched are pooled (trials, repetitions)"},
      {"metric",
       "a numeric run attribute (efficiency, utilization, makespan_total, ... see "
       "`lbbench schema`), auto_hit_rate (hits of the cases the verdicts' test decides: ties left "
       "out) / "
       "auto_max_regret (per case, `auto` runs), schedule_regret (median makespan_total of the "
       "runs over the best fixed loop schedule's median on the same workload and processors: "
       "auto4omp against the schedules run beside it), or "
       "matrix_model_error (the largest |model - measured| / measured speedup of Franklin & "
       "Govindan 1995's matrix iterative model; `runs` counts the comparisons)"},
      {"relative_to",
       "a second where-map: the value becomes median(metric there) / "
       "median(metric here), e.g. a speedup over no balancing"},
      {"paper", "the paper's number"},
      {"rank",
       "instead of paper, where the paper states only an order (its figures' values are "
       "not in the text): rows of a trend group ranked 1, 2, ... from the smallest; "
       "judged on the order alone"},
      {"tolerance",
       "the half-width, in the metric's units, within which the measured median equals the "
       "paper's number; needs tolerance_source. Absent: half a unit of the paper's last "
       "printed digit (paper: 3.07 -> 0.005), so type the number as the paper prints it"},
      {"tolerance_source",
       "where a stated tolerance comes from (the paper's stated spread, a count's half unit)"},
      {"bound",
       "upper or lower: the paper's number is a bound (\"never over 10 %\"); a measured "
       "value on its side of it is exact"},
      {"trend",
       "a group name: a row's order against each other row of the group holds when the "
       "verdicts' comparison (docs/results.md, \"Verdicts\": paired by trial and round where "
       "every run has its partner, else Mann-Whitney U; by value for simulated runs; "
       "Holm-adjusted, 5 %) finds the paper's order, is tied when it finds no difference and "
       "differs when it finds the opposite"},
      {"monotone",
       "non_increasing or non_decreasing, with 'over' instead of paper or rank: the claim that "
       "the metric falls (rises) with the swept key. Each sampled value is compared with the "
       "next and the last with the first, paired by trial and round (Holm over those k "
       "comparisons, 5 %): holds when no step goes the wrong way and the last differs from "
       "the first the claimed way, differs when a step goes the wrong way, else tied; "
       "measured: the last value's ratio to the first"},
      {"over",
       "the swept key of a monotone row (a sweep's key, a run attribute, or a parameter of "
       "the balancer's label, as safety_factor in \"block+predictive(safety_factor=2)\")"},
      {"not_built", "why the row cannot be measured here; printed as its verdict"},
      {"context",
       "why the row holds by construction (a lower bound, an ideal): shown beside the others, "
       "never counted as a verdict nor compared in its trend group"},
      {"open_choice",
       "what the paper leaves open that this row's setting chose: judged and shown, not "
       "counted as a reproduction nor compared against the group's other rows"},
      {"cause",
       "why the row differs, printed in the summary when it does: \"setting: ...\", "
       "\"paper: ...\" (the paper contradicts itself) or \"implementation: ...\""},
  };
  return keys;
}

std::optional<double> printed_half_unit(const std::string& text) {
  std::size_t i = text[0] == '-' || text[0] == '+' ? 1 : 0;
  const std::size_t digits_start = i;
  int decimals = 0;
  bool point = false, digit = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.' && !point) {
      point = true;
    } else if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      digit = true;
      decimals += point;
    } else {
      return std::nullopt;
    }
  }
  if (!digit || i == digits_start) return std::nullopt;
  int exponent = 0;
  if (i < text.size()) {
    const char* first = text.data() + i + 1;
    if (*first == '+') ++first;
    const char* last = text.data() + text.size();
    const auto [end, ec] = std::from_chars(first, last, exponent);
    if (ec != std::errc() || end != last || first == last) return std::nullopt;
  }
  return 0.5 * std::pow(10.0, exponent - decimals);
}

double value_tolerance(const Expectation& e) {
  return e.tolerance ? *e.tolerance : printed_half_unit(e.paper_text).value_or(0);
}

namespace {

// The causes a differing row may name: `cause: "setting: ..."`.
constexpr const char* kCauseKinds[] = {"setting", "paper", "implementation"};

bool known(const std::string& key) {
  const auto keys = expectation_keys();
  return std::any_of(keys.begin(), keys.end(), [&](const auto& k) { return key == k.key; });
}

std::string known_list() {
  std::string out;
  for (const auto& k : expectation_keys()) out += (out.empty() ? "" : ", ") + std::string(k.key);
  return out;
}

Selector read_selector(const YAML::Node& n, const char* name, Problems& problems) {
  Selector out;
  if (!n.IsMap()) {
    problems.at(n, std::string(name) + " must be a map of key: value");
    return out;
  }
  for (const auto& kv : n) {
    if (!kv.second.IsScalar())
      problems.at(kv.second, std::string(name) + "." + kv.first.Scalar() + " must be one value");
    else
      out.emplace_back(kv.first.Scalar(), kv.second.Scalar());
  }
  return out;
}

std::optional<double> read_number(const YAML::Node& n, const char* name, Problems& problems) {
  double x = 0;
  if (n.IsScalar() && YAML::convert<double>::decode(n, x)) return x;
  problems.at(n, std::string(name) + " must be a number");
  return std::nullopt;
}

std::string read_text(const YAML::Node& n, const char* name, Problems& problems) {
  if (n.IsScalar() && !n.Scalar().empty()) return n.Scalar();
  problems.at(n, std::string(name) + " must be a non-empty string");
  return "";
}

void read_fields(const YAML::Node& n, Expectation& e, Problems& problems) {
  if (n["row"]) e.row = read_text(n["row"], "row", problems);
  if (n["where"]) e.where = read_selector(n["where"], "where", problems);
  if (n["metric"]) e.metric = read_text(n["metric"], "metric", problems);
  if (n["relative_to"]) e.relative_to = read_selector(n["relative_to"], "relative_to", problems);
  if (n["paper"]) {
    e.paper = read_number(n["paper"], "paper", problems);
    if (e.paper) e.paper_text = n["paper"].Scalar();
  }
  if (n["rank"]) e.rank = read_number(n["rank"], "rank", problems);
  if (n["tolerance"]) {
    e.tolerance = read_number(n["tolerance"], "tolerance", problems);
    if (e.tolerance && !(*e.tolerance >= 0 && std::isfinite(*e.tolerance)))
      problems.at(n["tolerance"], "tolerance must be a finite number >= 0");
  }
  if (n["tolerance_source"])
    e.tolerance_source = read_text(n["tolerance_source"], "tolerance_source", problems);
  if (n["trend"]) e.trend = read_text(n["trend"], "trend", problems);
  if (n["over"]) e.over = read_text(n["over"], "over", problems);
  if (n["monotone"]) {
    e.monotone = read_text(n["monotone"], "monotone", problems);
    if (!e.monotone.empty() && e.monotone != "non_increasing" && e.monotone != "non_decreasing")
      problems.at(n["monotone"], "monotone must be non_increasing or non_decreasing");
  }
  if (n["bound"]) {
    e.bound = read_text(n["bound"], "bound", problems);
    if (!e.bound.empty() && e.bound != "upper" && e.bound != "lower")
      problems.at(n["bound"], "bound must be upper or lower");
  }
  if (n["not_built"]) e.not_built = read_text(n["not_built"], "not_built", problems);
  if (n["context"]) e.context = read_text(n["context"], "context", problems);
  if (n["open_choice"]) e.open_choice = read_text(n["open_choice"], "open_choice", problems);
  if (n["cause"]) {
    e.cause = read_text(n["cause"], "cause", problems);
    if (!e.cause.empty() &&
        std::none_of(std::begin(kCauseKinds), std::end(kCauseKinds),
                     [&](const char* k) { return e.cause.rfind(std::string(k) + ": ", 0) == 0; }))
      problems.at(n["cause"],
                  "cause must start with \"setting: \", \"paper: \" or \"implementation: \"");
  }
}

// A row's keys that only make sense together.
void check_row(const YAML::Node& n, const Expectation& e, Problems& problems) {
  if (e.row.empty()) problems.at(n, "an expectation row needs 'row'");
  if (e.not_built.empty() && (e.metric.empty() || (!e.paper && !e.rank && e.monotone.empty())))
    problems.at(n,
                "an expectation row needs 'metric' and 'paper', 'rank' or 'monotone' (or "
                "'not_built')");
  if (e.monotone.empty() != e.over.empty())
    problems.at(n, "'monotone' and 'over' go together: a claim over a swept key names it");
  if (!e.monotone.empty() && (e.paper || e.rank || !e.trend.empty() || !e.relative_to.empty()))
    problems.at(n,
                "a monotone row is judged on its own runs: no paper, rank, trend or relative_to");
  if (e.rank && e.trend.empty()) problems.at(n, "a row with 'rank' needs a 'trend' group");
  if (e.tolerance.has_value() != !e.tolerance_source.empty())
    problems.at(n,
                "'tolerance' and 'tolerance_source' go together: a stated tolerance says "
                "where it comes from");
  if (e.paper && !e.tolerance && e.bound.empty() && !printed_half_unit(e.paper_text))
    problems.at(n["paper"], "paper '" + e.paper_text +
                                "' has no printed precision: type it as the paper prints it "
                                "or state 'tolerance' with its 'tolerance_source'");
  if (!e.context.empty() && !e.open_choice.empty())
    problems.at(n, "a row is either context (true by construction) or an open choice, not both");
}

}  // namespace

std::vector<Expectation> read_expectations(const YAML::Node& root, Problems& problems) {
  std::vector<Expectation> out;
  const YAML::Node list = root["expectations"];
  if (!list) return out;
  if (!list.IsSequence()) {
    problems.at(list, "expectations must be a list of rows, e.g. [ { row: ..., metric: ... } ]");
    return out;
  }
  for (const auto& n : list) {
    if (!n.IsMap()) {
      problems.at(n, "an expectation row must be a map (keys: " + known_list() + ")");
      continue;
    }
    for (const auto& kv : n)
      if (!known(kv.first.Scalar()))
        problems.at(kv.first, "unknown expectation key '" + kv.first.Scalar() +
                                  "' (expected: " + known_list() + ")");
    Expectation e;
    e.where_in_config = problems.where(n);
    read_fields(n, e, problems);
    check_row(n, e, problems);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace lbb
