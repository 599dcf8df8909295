#include "harness/papers/balance_experiment.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "core/text.h"
#include "harness/config/config_loader.h"
#include "harness/config/config_problems.h"
#include "harness/config/yaml_reader.h"
#include "harness/papers/expectation_verdicts.h"

namespace lbb {

namespace {

constexpr const char* kCaseKeys[] = {"case",       "method",      "topology",       "loads",
                                     "processors", "point_load",  "speeds",         "params",
                                     "graph",      "table_loads", "table_transfers"};

std::optional<std::int64_t> read_integer(const YAML::Node& n, const char* what, Problems& p) {
  std::int64_t x = 0;
  if (n.IsScalar() && YAML::convert<std::int64_t>::decode(n, x)) return x;
  p.at(n, std::string(what) + " must be an integer");
  return std::nullopt;
}

std::vector<std::int64_t> read_integers(const YAML::Node& n, const char* what, Problems& p) {
  std::vector<std::int64_t> out;
  if (!n.IsSequence()) {
    p.at(n, std::string(what) + " must be a list of integers");
    return out;
  }
  for (const auto& x : n)
    if (auto v = read_integer(x, what, p)) out.push_back(*v);
  return out;
}

std::string joined(const std::vector<std::int64_t>& v, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + std::to_string(v[i]);
  return out;
}

// `loads: [l0, ...]`, or Horton's point source: `processors: P, point_load: U` (U units on
// processor 0, none elsewhere).
std::string read_loads(const YAML::Node& n, Problems& p) {
  if (n["loads"]) return joined(read_integers(n["loads"], "loads", p), ",");
  if (!n["processors"] || !n["point_load"]) {
    p.at(n, "a balance case needs loads: [...] or processors and point_load");
    return "";
  }
  const auto procs = read_integer(n["processors"], "processors", p);
  const auto units = read_integer(n["point_load"], "point_load", p);
  if (!procs || !units) return "";
  if (*procs < 1 || *procs > 4096 || *units < 0) {
    p.at(n["processors"], "processors must lie in [1, 4096] and point_load be >= 0");
    return "";
  }
  std::vector<std::int64_t> loads(static_cast<std::size_t>(*procs), 0);
  loads[0] = *units;
  return joined(loads, ",");
}

// A phase's transfers happen at once: compared as a set, ordered by (from, to).
void sort_transfers(std::vector<std::vector<std::int64_t>>& transfers) {
  if (std::any_of(transfers.begin(), transfers.end(), [](const auto& t) { return t.size() != 3; }))
    return;  // reported as a problem
  std::sort(transfers.begin(), transfers.end(), [](const auto& a, const auto& b) {
    return std::tie(a[1], a[2]) < std::tie(b[1], b[2]);
  });
}

void read_tables(const YAML::Node& n, BalanceCase& c, Problems& p) {
  if (const YAML::Node t = n["table_loads"]) {
    if (!t.IsSequence()) p.at(t, "table_loads must be a list of load vectors, one a phase");
    for (const auto& phase : t) c.table_loads.push_back(read_integers(phase, "table_loads", p));
  }
  if (const YAML::Node t = n["table_transfers"]) {
    if (!t.IsSequence()) p.at(t, "table_transfers must be a list of phases");
    for (const auto& phase : t) {
      std::vector<std::vector<std::int64_t>> transfers;
      if (!phase.IsSequence()) p.at(phase, "a phase of table_transfers must be a list");
      for (const auto& tr : phase) {
        transfers.push_back(read_integers(tr, "a transfer [units, from, to]", p));
        if (transfers.back().size() != 3) p.at(tr, "a transfer is [units, from, to]");
      }
      sort_transfers(transfers);
      c.table_transfers.push_back(std::move(transfers));
    }
  }
}

BalanceCase read_case(const YAML::Node& n, Problems& p) {
  BalanceCase c;
  for (const auto& kv : n)
    if (std::none_of(std::begin(kCaseKeys), std::end(kCaseKeys),
                     [&](const char* k) { return kv.first.Scalar() == k; }))
      p.at(kv.first, "unknown balance case key '" + kv.first.Scalar() +
                         "' (expected: case, method, topology, loads or processors and "
                         "point_load, speeds, params, graph, table_loads, table_transfers)");
  bool named = true;
  for (const char* key : {"case", "method", "topology"}) {
    if (n[key] && n[key].IsScalar() && !n[key].Scalar().empty()) continue;
    p.at(n[key] ? n[key] : n, std::string("a balance case needs ") + key + ": a name");
    named = false;
  }
  if (!named) return c;
  c.label = n["case"].Scalar();
  c.request.method = n["method"].Scalar();
  c.request.topology = n["topology"].Scalar();
  c.request.loads = read_loads(n, p);
  if (n["speeds"]) c.request.speeds = n["speeds"].Scalar();
  if (n["graph"]) c.request.graph = n["graph"].Scalar();
  if (const YAML::Node params = n["params"]) {
    if (!params.IsMap()) p.at(params, "params must be a map of key: value");
    for (const auto& kv : params)
      c.request.params.push_back(kv.first.Scalar() + "=" + kv.second.Scalar());
  }
  read_tables(n, c, p);
  return c;
}

}  // namespace

bool is_balance_experiment(const std::string& yaml_text) {
  try {
    const YAML::Node root = YAML::Load(yaml_text);
    return root.IsMap() && root["balance_cases"];
  } catch (const YAML::Exception&) {
    return false;  // the config reader reports it
  }
}

BalanceExperiment load_balance_experiment(const std::string& yaml_text, const std::string& path) {
  const YAML::Node root = parse_strict_yaml(yaml_text, path, true);
  Problems problems(path);
  BalanceExperiment e;
  e.name = std::filesystem::path(path).stem().string();
  for (const auto& kv : root) {
    const std::string key = kv.first.Scalar();
    if (key != "name" && key != "balance_cases" && key != "expectations")
      problems.at(kv.first, "unknown key '" + key +
                                "' in a balance experiment (expected: name, balance_cases, "
                                "expectations)");
  }
  if (root["name"]) e.name = root["name"].Scalar();
  const YAML::Node cases = root["balance_cases"];
  if (!cases.IsSequence() || cases.size() == 0)
    problems.at(cases, "balance_cases must be a non-empty list of cases");
  for (const auto& n : cases) {
    if (!n.IsMap()) {
      problems.at(n, "a balance case must be a map");
      continue;
    }
    e.cases.push_back(read_case(n, problems));
  }
  e.expectations = read_expectations(root, problems);
  for (Expectation& x : e.expectations)  // a case is a run whose id is its label
    for (auto& [key, value] : x.where)
      if (key == "case") key = "run";
  if (problems.any()) throw ConfigError(problems.text());
  return e;
}

namespace {

std::string transfer_text(const std::vector<std::vector<std::int64_t>>& transfers) {
  std::string out;
  for (const auto& t : transfers)
    out += (out.empty() ? "" : ", ") + std::to_string(t[0]) + ": " + std::to_string(t[1]) + "->" +
           std::to_string(t[2]);
  return out.empty() ? "none" : out;
}

// How many phases, from the first, equal the table's; `first_difference` says where they part.
template <class Measured, class Text>
int phases_as_paper(const std::vector<Measured>& measured, const std::vector<Measured>& paper,
                    Text text, std::string& first_difference) {
  const std::size_t n = std::max(measured.size(), paper.size());
  for (std::size_t k = 0; k < n; ++k) {
    const bool both = k < measured.size() && k < paper.size();
    if (both && measured[k] == paper[k]) continue;
    first_difference = "phase " + std::to_string(k + 1) + ": measured " +
                       (k < measured.size() ? text(measured[k]) : "(no phase)") + "; paper " +
                       (k < paper.size() ? text(paper[k]) : "(no phase)");
    return static_cast<int>(k);
  }
  return static_cast<int>(n);
}

BalanceCaseRun run_case(const std::string& name, const BalanceCase& c) {
  nlohmann::json report;
  try {
    report = balance_report(c.request);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("case '" + c.label + "': " + e.what());
  }
  BalanceCaseRun out;
  RunRecord& r = out.run;
  r.run = c.label;
  r.name = name;
  r.balancer = c.request.method;
  r.topology = c.request.topology;
  r.status = "complete";
  r.processors = report["processors"].get<std::int64_t>();
  r.imbalance = report["imbalance"].get<double>();
  r.figures = {{"phases", static_cast<double>(report["phases"].size())},
               {"units_moved", report["units_moved"].get<double>()}};
  std::vector<std::vector<std::int64_t>> loads;
  std::vector<std::vector<std::vector<std::int64_t>>> transfers;
  for (const auto& phase : report["phases"]) {
    loads.push_back(phase["loads"].get<std::vector<std::int64_t>>());
    transfers.emplace_back();
    for (const auto& t : phase["transfers"])
      transfers.back().push_back({t["units"].get<std::int64_t>(), t["from"].get<std::int64_t>(),
                                  t["to"].get<std::int64_t>()});
    sort_transfers(transfers.back());
  }
  std::string loads_differ, transfers_differ;
  if (!c.table_loads.empty())
    r.figures.push_back(
        {"load_phases_as_paper",
         static_cast<double>(phases_as_paper(
             loads, c.table_loads, [](const auto& l) { return joined(l, " "); }, loads_differ))});
  if (!c.table_transfers.empty())
    r.figures.push_back({"transfer_phases_as_paper",
                         static_cast<double>(phases_as_paper(transfers, c.table_transfers,
                                                             transfer_text, transfers_differ))});
  if (!loads_differ.empty()) out.differs.push_back("loads at " + loads_differ);
  if (!transfers_differ.empty()) out.differs.push_back("transfers at " + transfers_differ);
  return out;
}

}  // namespace

std::vector<BalanceCaseRun> run_balance_cases(const BalanceExperiment& experiment) {
  std::vector<BalanceCaseRun> runs;
  for (const BalanceCase& c : experiment.cases) runs.push_back(run_case(experiment.name, c));
  return runs;
}

void print_balance_experiment(std::ostream& out, const BalanceExperiment& experiment,
                              const std::vector<BalanceCaseRun>& cases) {
  std::size_t w = 4;
  std::vector<RunRecord> runs;
  for (const BalanceCaseRun& c : cases) {
    w = std::max(w, c.run.run.size());
    runs.push_back(c.run);
  }
  out << experiment.name << ": " << runs.size() << " balance cases (integer work units)\n"
      << std::left << std::setw(static_cast<int>(w)) << "case" << std::right << std::setw(18)
      << "method" << std::setw(6) << "P" << std::setw(8) << "phases" << std::setw(11) << "imbalance"
      << std::setw(8) << "moved"
      << "\n";
  for (const RunRecord& r : runs)
    out << std::left << std::setw(static_cast<int>(w)) << r.run << std::right << std::setw(18)
        << r.balancer << std::setw(6) << r.processors << std::setw(8) << *r.figure("phases")
        << std::setw(11) << format_number(r.imbalance, 3) << std::setw(8)
        << *r.figure("units_moved") << "\n";
  for (const BalanceCaseRun& c : cases)
    for (const std::string& differs : c.differs)
      out << "  " << c.run.run << " leaves the paper's " << differs << "\n";
  out << "\n";
  if (!experiment.expectations.empty())
    print_expectations(out, judge_expectations(experiment.expectations, runs));
}

}  // namespace lbb
