#include "balancers/between_steps/parts/multilevel_chain.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lbb {

ChainCosts::ChainCosts(std::span<const double> cost) : cost_(cost), prefix_(cost.size() + 1, 0.0) {
  for (std::size_t m = 0; m < cost.size(); ++m) {
    prefix_[m + 1] = prefix_[m] + cost[m];
    largest_ = std::max(largest_, cost[m]);
  }
}

ChainRanges ChainCosts::block(int processors) const {
  const auto modules = static_cast<std::int64_t>(cost_.size());
  ChainRanges r;
  for (std::int64_t p = 0; p <= processors; ++p) r.first.push_back(p * modules / processors);
  for (int p = 0; p < processors; ++p) r.work.push_back(range_cost(r.first[p], r.first[p + 1]));
  return r;
}

double ChainCosts::range_cost(std::int64_t first, std::int64_t last) const {
  double sum = 0;
  for (std::int64_t m = first; m < last; ++m) sum += cost_[m];
  return sum;
}

namespace {

double makespan(std::span<const double> work, std::span<const double> speed) {
  double worst = 0;
  for (std::size_t p = 0; p < work.size(); ++p) worst = std::max(worst, work[p] / speed[p]);
  return worst;
}

// The first module m in [low, modules] whose running sum plus half its cost is not below
// `boundary` (that sum only grows with m), searched outward from `guess` (the old boundary,
// near which the new one lies once loads are nearly balanced), then by bisection.
std::int64_t first_not_below(const ChainCosts& costs, double boundary, std::int64_t low,
                             std::int64_t guess) {
  const auto modules = static_cast<std::int64_t>(costs.cost().size());
  auto below = [&](std::int64_t m) { return costs.before(m) + 0.5 * costs.cost()[m] < boundary; };
  std::int64_t a = low, b = modules;  // the answer lies in [a, b]
  const std::int64_t g = std::clamp(guess, low, modules);
  if (g == modules || !below(g)) {
    b = g;
    for (std::int64_t step = 1; b - step >= low; step *= 2) {
      if (below(b - step)) {
        a = b - step + 1;
        break;
      }
      b -= step;
    }
  } else {
    a = g + 1;
    for (std::int64_t step = 1; a + step - 1 < modules; step *= 2) {
      if (!below(a + step - 1)) {
        b = a + step - 1;
        break;
      }
      a += step;
    }
  }
  while (a < b) {
    const std::int64_t mid = a + (b - a) / 2;
    if (below(mid))
      a = mid + 1;
    else
      b = mid;
  }
  return a;
}

// shift_chain_boundaries (transfer_realization.cpp): the boundary after p moves to the old
// cumulative cost up to p less the net cost crossing from p to p + 1; modules go to p while
// their running sum plus half their cost lies below it, from where the last range stopped.
std::vector<std::int64_t> shifted_boundaries(const ChainCosts& costs, const ChainRanges& ranges,
                                             std::span<const double> crossing) {
  const int processors = static_cast<int>(ranges.work.size());
  std::vector<std::int64_t> first(processors + 1, 0);
  std::int64_t m = 0;
  double cumulative = 0;
  for (int p = 0; p + 1 < processors; ++p) {
    cumulative += ranges.work[p];
    first[p + 1] = m = first_not_below(costs, cumulative - crossing[p], m, ranges.first[p + 1]);
  }
  first[processors] = static_cast<std::int64_t>(costs.cost().size());
  return first;
}

// Net cost that crossed the boundary after `b` upward (boundary_crossings).
double crossed(const ChainCosts& costs, std::int64_t before, std::int64_t after) {
  return before >= after ? costs.range_cost(after, before) : -costs.range_cost(before, after);
}

}  // namespace

ChainDecision multilevel_on_chain(const MultilevelDiffusion& balancer, double min_gain,
                                  const ChainCosts& costs, const ChainRanges& ranges,
                                  std::span<const double> speed, const Topology& topology,
                                  int step) {
  const int processors = static_cast<int>(ranges.work.size());
  if (topology.size() != processors)
    throw std::invalid_argument("the topology does not match the processors");
  ChainDecision out;
  out.predicted_before = out.predicted_after = makespan(ranges.work, speed);
  const auto modules = static_cast<double>(costs.cost().size());
  const double quantum = costs.total() / (modules * kUnitsPerModule);  // module_units
  if (!(quantum > 0)) return out;
  std::vector<std::int64_t> units(processors);
  for (int p = 0; p < processors; ++p) units[p] = std::llround(ranges.work[p] / quantum);
  const TransferPlan plan = balancer.plan({units, speed, &topology, step, nullptr});
  const std::vector<UnitTransfer> net = net_transfers(plan);
  if (net.empty()) return out;
  std::vector<double> crossing(processors, 0.0);
  for (const auto& t : net) {
    const double cost = static_cast<double>(t.units) * quantum;
    if (t.to == t.from + 1)
      crossing[t.from] += cost;
    else if (t.to == t.from - 1)
      crossing[t.to] -= cost;
    else
      throw std::invalid_argument("multilevel on a chain: a transfer between non-neighbours");
  }
  ChainRanges next{shifted_boundaries(costs, ranges, crossing), ranges.work};
  if (next.first == ranges.first) return out;
  const bool phases = plan.phases.size() > 1;  // else each sender's largest module bounds it
  for (const auto& t : net) {
    const int b = std::min(t.from, t.to);
    const double moved = crossed(costs, ranges.first[b + 1], next.first[b + 1]);
    double tol = phases ? costs.largest() : 0.0;
    for (std::int64_t m = ranges.first[t.from]; !phases && m < ranges.first[t.from + 1]; ++m)
      tol = std::max(tol, costs.cost()[m]);
    const double planned = static_cast<double>(t.units) * quantum;
    if (std::abs((t.to > t.from ? moved : -moved) - planned) > tol * (1 + 1e-9))
      throw std::logic_error(
          "unit plan: the chosen modules miss a planned transfer by more than one module's cost");
  }
  for (int p = 0; p < processors; ++p)
    if (next.first[p] != ranges.first[p] || next.first[p + 1] != ranges.first[p + 1])
      next.work[p] = costs.range_cost(next.first[p], next.first[p + 1]);
  out.predicted_after = makespan(next.work, speed);
  if (!(out.predicted_after < (1 - min_gain) * out.predicted_before)) return out;  // no gain
  out.act = true;
  out.phases = static_cast<int>(plan.phases.size());
  out.next = std::move(next);
  return out;
}

}  // namespace lbb
