#include "balancers/between_steps/parts/transfer_plan.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>

namespace lbb {

std::int64_t TransferPlan::units_moved() const {
  std::int64_t total = 0;
  for (const auto& phase : phases)
    for (const auto& t : phase.transfers) total += t.units;
  return total;
}

std::optional<std::string> unit_loads_error(const UnitLoads& in) {
  if (in.loads.empty()) return "no processors: give one load per processor";
  if (!in.topology) return "no topology";
  if (in.topology->size() != in.processors())
    return "the topology has " + std::to_string(in.topology->size()) + " processors but " +
           std::to_string(in.processors()) + " loads were given";
  if (in.speed.size() != in.loads.size())
    return std::to_string(in.speed.size()) + " speeds for " + std::to_string(in.loads.size()) +
           " processors";
  for (std::size_t p = 0; p < in.speed.size(); ++p)
    if (!(in.speed[p] > 0) || !std::isfinite(in.speed[p]))
      return "speed of processor " + std::to_string(p) + " must be a positive number";
  for (std::size_t p = 0; p < in.loads.size(); ++p)
    if (in.loads[p] < 0)
      return "load of processor " + std::to_string(p) + " is negative (" +
             std::to_string(in.loads[p]) + ")";
  if (in.communication && in.communication->modules() != in.processors())
    return "the communication graph has " + std::to_string(in.communication->modules()) +
           " subproblems but " + std::to_string(in.processors()) + " loads were given";
  return std::nullopt;
}

TransferPlan empty_plan(std::span<const std::int64_t> loads) {
  TransferPlan plan;
  plan.final_loads.assign(loads.begin(), loads.end());
  return plan;
}

void append_phase(TransferPlan& plan, std::vector<UnitTransfer> transfers, bool keep_empty) {
  std::erase_if(transfers, [](const UnitTransfer& t) { return t.units == 0; });
  if (transfers.empty() && !keep_empty) return;
  for (auto& t : transfers) {
    if (t.units < 0) {  // store every transfer in its real direction
      std::swap(t.from, t.to);
      t.units = -t.units;
    }
    plan.final_loads[t.from] -= t.units;
    plan.final_loads[t.to] += t.units;
  }
  plan.phases.push_back({std::move(transfers), plan.final_loads});
}

std::vector<double> balanced_loads(std::span<const std::int64_t> loads,
                                   std::span<const double> speed) {
  return balanced_loads(std::accumulate(loads.begin(), loads.end(), std::int64_t{0}), speed);
}

std::vector<double> balanced_loads(std::int64_t total, std::span<const double> speed) {
  const double speed_sum = std::accumulate(speed.begin(), speed.end(), 0.0);
  std::vector<double> out(speed.size());
  for (std::size_t p = 0; p < speed.size(); ++p)
    out[p] = static_cast<double>(total) * speed[p] / speed_sum;
  return out;
}

std::int64_t UnitLoads::total_load() const {
  return total >= 0 ? total : std::accumulate(loads.begin(), loads.end(), std::int64_t{0});
}

double imbalance(std::span<const std::int64_t> loads, std::span<const double> speed) {
  const auto ideal = balanced_loads(loads, speed);
  double sum = 0;
  for (std::size_t p = 0; p < loads.size(); ++p) {
    const double d = static_cast<double>(loads[p]) - ideal[p];
    sum += d * d;
  }
  return std::sqrt(sum);
}

std::vector<UnitTransfer> net_transfers(const TransferPlan& plan) {
  std::map<std::pair<int, int>, std::int64_t> net;  // (low, high) -> units from low to high
  for (const auto& phase : plan.phases)
    for (const auto& t : phase.transfers) {
      if (t.from < t.to)
        net[{t.from, t.to}] += t.units;
      else
        net[{t.to, t.from}] -= t.units;
    }
  std::vector<UnitTransfer> out;
  for (const auto& [pair, units] : net) {
    if (units > 0) out.push_back({pair.first, pair.second, units});
    if (units < 0) out.push_back({pair.second, pair.first, -units});
  }
  std::sort(out.begin(), out.end(), [](const UnitTransfer& a, const UnitTransfer& b) {
    return std::pair(a.from, a.to) < std::pair(b.from, b.to);
  });
  return out;
}

}  // namespace lbb
