#include "harness/analysis/balance_report.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>
#include <variant>

#include "balancers/balancer.h"
#include "balancers/between_steps/parts/unit_balance.h"
#include "core/module_graph.h"
#include "core/text.h"
#include "harness/base/platform_emulation.h"
#include "harness/config/memory_estimate.h"

namespace lbb {

namespace {

std::vector<std::string_view> split_list(std::string_view option, std::string_view text) {
  if (text.empty()) throw std::invalid_argument(std::string(option) + ": empty list");
  std::vector<std::string_view> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    items.push_back(
        text.substr(start, comma == std::string_view::npos ? text.npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

// Loads are summed as 64-bit integers and compared as doubles: a total up to 2^53 is exact in
// both (loads near 2^62 overflowed the sum: imbalance 1.3e19 for equal loads).
constexpr std::int64_t kMaxTotalUnits = std::int64_t{1} << 53;

std::vector<std::int64_t> parse_loads(std::string_view text) {
  std::vector<std::int64_t> loads;
  std::int64_t total = 0;
  for (auto item : split_list("--loads", text)) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (ec != std::errc() || end != item.data() + item.size() || item.empty() || value < 0)
      throw std::invalid_argument("--loads: '" + std::string(item) +
                                  "' is not a non-negative integer");
    if (value > kMaxTotalUnits - total)
      throw std::invalid_argument("--loads: the units add up to more than 2^53");
    total += value;
    loads.push_back(value);
  }
  return loads;
}

std::vector<double> parse_speeds(std::string_view text, std::size_t processors) {
  if (text.empty()) return std::vector<double>(processors, 1.0);
  std::vector<double> speeds;
  for (auto item : split_list("--speeds", text)) {
    double value = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (ec != std::errc() || end != item.data() + item.size() || item.empty())
      throw std::invalid_argument("--speeds: '" + std::string(item) + "' is not a number");
    if (auto why = check_value(relative_speed_spec(), value))
      throw std::invalid_argument("--speeds: '" + std::string(item) + "' " + *why);
    speeds.push_back(value);
  }
  if (speeds.size() != processors)
    throw std::invalid_argument("--speeds: " + std::to_string(speeds.size()) + " speeds for " +
                                std::to_string(processors) + " processors (one per load)");
  return speeds;
}

// "a-b,c-d": undirected edges between processors in [0, processors); repeats are one edge.
std::vector<std::vector<int>> parse_graph(std::string_view text, int processors) {
  std::vector<std::vector<int>> lists(processors);
  for (auto item : split_list("--graph", text)) {
    const std::size_t dash = item.find('-');
    int end[2] = {-1, -1};
    bool ok = dash != std::string_view::npos;
    for (int k = 0; ok && k < 2; ++k) {
      const auto part = k == 0 ? item.substr(0, dash) : item.substr(dash + 1);
      const auto [last, ec] = std::from_chars(part.data(), part.data() + part.size(), end[k]);
      ok = ec == std::errc() && last == part.data() + part.size() && !part.empty() && end[k] >= 0 &&
           end[k] < processors;
    }
    if (!ok || end[0] == end[1])
      throw std::invalid_argument("--graph: '" + std::string(item) +
                                  "' is not an edge a-b of two " + "processors in [0, " +
                                  std::to_string(processors) + ")");
    for (int k = 0; k < 2; ++k) {
      auto& list = lists[end[k]];
      if (std::find(list.begin(), list.end(), end[1 - k]) == list.end()) list.push_back(end[1 - k]);
    }
  }
  return lists;
}

// A plan keeps every phase (P loads and up to one transfer an edge), and the report holds it
// again as JSON and as text. With a phase limit (diffusion_horton's max_phases) that bound is
// checked up front: 50,000 loads at the default 100,000 phases ended in std::bad_alloc.
void check_plan_memory(const std::string& method, const Params& resolved,
                       const Topology& topology) {
  if (!resolved.has("max_phases")) return;
  const double processors = static_cast<double>(topology.size());
  double edges = 0;
  for (int p = 0; p < topology.size(); ++p) edges += 0.5 * topology.neighbours(p).size();
  // Bytes a load and a transfer take in the plan, the JSON tree and its text (measured order).
  constexpr double kLoadBytes = 8 + 16 + 12, kTransferBytes = 24 + 4 * 16 + 64 + 40;
  const double phases = static_cast<double>(resolved.integer("max_phases"));
  const double per_phase = processors * kLoadBytes + edges * kTransferBytes;
  const double have = machine_memory_bytes();
  if (phases * per_phase <= have) return;
  const auto fits = static_cast<std::int64_t>(have / per_phase);
  throw std::invalid_argument(
      method + " may keep up to " + std::to_string(resolved.integer("max_phases")) +
      " transfer phases of " + std::to_string(topology.size()) + " loads, about " +
      format_number(phases * per_phase / (1 << 30), 3) +
      " GiB with its report, more than this machine's " + format_number(have / (1 << 30), 3) +
      " GiB: pass --param max_phases=N with N at most " + std::to_string(fits));
}

nlohmann::json to_json(const ParamValue& value) {
  return std::visit([](const auto& v) { return nlohmann::json(v); }, value);
}

}  // namespace

nlohmann::json balance_report(const BalanceRequest& request) {
  const BalancerInfo& info = unit_level_info(request.method);
  const auto kind = parse_topology(request.topology);
  if (!kind)
    throw std::invalid_argument("--topology: unknown topology '" + request.topology +
                                "' (chain, ring, mesh2d, hypercube or complete)");
  const std::vector<std::int64_t> loads = parse_loads(request.loads);
  const std::vector<double> speeds = parse_speeds(request.speeds, loads.size());
  const int processors = static_cast<int>(loads.size());
  if (auto err = topology_size_error(*kind, processors))
    throw std::invalid_argument("--topology " + request.topology + ": " + *err);
  Params given;
  for (const auto& kv : request.params) set_param_from_text(info.params, kv, given);
  const Params resolved = resolve_params(info.params, given);
  const Topology topology(*kind, processors);
  check_plan_memory(info.name, resolved, topology);
  std::optional<ModuleGraph> graph;
  if (!request.graph.empty()) graph = ModuleGraph(parse_graph(request.graph, processors));
  const TransferPlan plan = plan_units(
      info.name, given, {loads, speeds, &topology, request.step, graph ? &*graph : nullptr});

  // nlohmann's destructor allocates (it flattens a tree on a heap stack): out of memory, a
  // half-built report is left to the process's exit rather than ending in std::terminate.
  auto out = std::make_unique<nlohmann::json>();
  try {
    (*out)["method"] = info.name;
    (*out)["topology"] = std::string(topology_name(*kind));
    (*out)["processors"] = processors;
    (*out)["params"] = nlohmann::json::object();
    for (const auto& [name, value] : resolved.values()) (*out)["params"][name] = to_json(value);
    (*out)["loads"] = loads;
    (*out)["speeds"] = speeds;
    (*out)["graph"] = nlohmann::json::array();
    for (int p = 0; graph && p < processors; ++p)
      for (int q : graph->neighbours(p))
        if (p < q) (*out)["graph"].push_back({p, q});
    (*out)["phases"] = nlohmann::json::array();
    for (const auto& phase : plan.phases) {
      nlohmann::json transfers = nlohmann::json::array();
      for (const auto& t : phase.transfers)
        transfers.push_back({{"from", t.from}, {"to", t.to}, {"units", t.units}});
      (*out)["phases"].push_back({{"transfers", transfers}, {"loads", phase.loads}});
    }
    (*out)["final_loads"] = plan.final_loads;
    (*out)["imbalance"] = imbalance(plan.final_loads, speeds);
    (*out)["units_moved"] = plan.units_moved();
  } catch (const std::bad_alloc&) {
    out.release();
    throw;
  }
  nlohmann::json report = std::move(*out);
  return report;
}

}  // namespace lbb
