#include "harness/config/expectations.h"

#include <algorithm>

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
       "`lbbench schema`), auto_hit_rate / auto_max_regret (`auto` runs), or "
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
      {"tolerance", "relative: |measured - paper| <= tolerance x |paper| is exact (default 0.1)"},
      {"bound",
       "upper or lower: the paper's number is a bound (\"never over 10 %\"); a measured "
       "value on its side of it is exact"},
      {"trend",
       "a group name: each row of the group holds its trend when every pair of the "
       "group keeps the paper's order"},
      {"not_built", "why the row cannot be measured here; printed as its verdict"},
  };
  return keys;
}

namespace {

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
  if (n["paper"]) e.paper = read_number(n["paper"], "paper", problems);
  if (n["rank"]) e.rank = read_number(n["rank"], "rank", problems);
  if (n["tolerance"]) {
    const auto t = read_number(n["tolerance"], "tolerance", problems);
    if (t && (*t < 0 || *t > 10)) problems.at(n["tolerance"], "tolerance must lie in [0, 10]");
    if (t) e.tolerance = *t;
  }
  if (n["trend"]) e.trend = read_text(n["trend"], "trend", problems);
  if (n["bound"]) {
    e.bound = read_text(n["bound"], "bound", problems);
    if (!e.bound.empty() && e.bound != "upper" && e.bound != "lower")
      problems.at(n["bound"], "bound must be upper or lower");
  }
  if (n["not_built"]) e.not_built = read_text(n["not_built"], "not_built", problems);
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
    if (e.row.empty()) problems.at(n, "an expectation row needs 'row'");
    if (e.not_built.empty() && (e.metric.empty() || (!e.paper && !e.rank)))
      problems.at(n, "an expectation row needs 'metric' and 'paper' or 'rank' (or 'not_built')");
    if (e.rank && e.trend.empty()) problems.at(n, "a row with 'rank' needs a 'trend' group");
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace lbb
