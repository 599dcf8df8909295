#include "balancers/between_steps/diffusion_horton.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>

namespace lbb {

BalancerInfo HortonDiffusion::info() {
  return unit_plan_entry(
      {"diffusion_horton",
       BalancerRole::kBetweenSteps,
       "diffusion: neighbours exchange half their load difference until locally balanced "
       "(Horton 1993, Algorithm 1)",
       {int_param("max_phases", 100000, "stop after this many transfer phases", 1)}},
      +[](const Params& p) { return std::make_unique<HortonDiffusion>(p.integer("max_phases")); });
}

namespace {

// Units i should send j so that load / speed is equal on both: floor((l_i s_j - l_j s_i) /
// (s_i + s_j)), which is floor((l_i - l_j) / 2) for equal speeds. Negative: j sends i.
std::int64_t pair_share(std::int64_t li, std::int64_t lj, double si, double sj) {
  const double x = (static_cast<double>(li) * sj - static_cast<double>(lj) * si) / (si + sj);
  return static_cast<std::int64_t>(std::floor(std::abs(x) + 1e-9)) * (x < 0 ? -1 : 1);
}

// Half of every difference, paid to or taken from several neighbours at once, can overshoot on
// graphs of degree above two and then oscillate. So a processor sending to two or more
// neighbours keeps at least the speed-weighted average of itself and its receivers, and one
// receiving from two or more ends at most at the average of itself and its senders; transfers
// shrink in proportion (largest remainders first). Applied only on graphs of degree above two, on
// graphs with a cycle, or with unequal speeds: on a chain it would change literal Algorithm 1
// (0, 10, 0 would take one phase, not two).
void limit_to_local_average(std::vector<UnitTransfer>& transfers,
                            std::span<const std::int64_t> load, std::span<const double> speed,
                            bool senders) {
  const std::size_t processors = load.size();
  auto side = [senders](const UnitTransfer& t) { return senders ? t.from : t.to; };
  auto other = [senders](const UnitTransfer& t) { return senders ? t.to : t.from; };
  std::vector<std::int64_t> total(processors, 0), cap(processors), left(processors, 0);
  std::vector<int> partners(processors, 0);
  std::vector<double> group_load(load.begin(), load.end()), group_speed(speed.begin(), speed.end());
  for (const auto& t : transfers) {
    if (t.units == 0) continue;
    total[side(t)] += t.units;
    ++partners[side(t)];
    group_load[side(t)] += static_cast<double>(load[other(t)]);
    group_speed[side(t)] += speed[other(t)];
  }
  for (std::size_t p = 0; p < processors; ++p) {
    cap[p] = total[p];
    if (partners[p] < 2) continue;
    const double average = speed[p] * group_load[p] / group_speed[p];
    const double room =
        senders ? static_cast<double>(load[p]) - average : average - static_cast<double>(load[p]);
    cap[p] =
        std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(room + 1e-9)), 0, total[p]);
    left[p] = cap[p];
  }
  std::vector<std::pair<double, std::size_t>> remainders;  // (fraction lost, transfer)
  for (std::size_t k = 0; k < transfers.size(); ++k) {
    auto& t = transfers[k];
    const int p = side(t);
    if (cap[p] == total[p]) continue;
    const double exact =
        static_cast<double>(t.units) * static_cast<double>(cap[p]) / static_cast<double>(total[p]);
    t.units = static_cast<std::int64_t>(std::floor(exact));
    left[p] -= t.units;
    remainders.emplace_back(exact - static_cast<double>(t.units), k);
  }
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [fraction, k] : remainders) {
    auto& t = transfers[k];
    if (left[side(t)] > 0) {
      ++t.units;
      --left[side(t)];
    }
  }
}

}  // namespace

TransferPlan HortonDiffusion::plan(const UnitLoads& in) const {
  TransferPlan plan = empty_plan(in.loads);
  const int processors = in.processors();
  // Literal Algorithm 1 (equal speeds, chains); the bound only where a processor may pay more
  // than it holds: three or more differences at once, a faster neighbour's speed-weighted share
  // above half of its load, or a cycle, where two halves paid at once can swap loads for good
  // (a ring of four at 0, 10, 0, 10 alternated with 10, 0, 10, 0 until max_phases).
  bool needs_bound = false;
  std::size_t edges = 0;
  for (int i = 0; i < processors; ++i) {
    edges += in.topology->neighbours(i).size();
    needs_bound =
        needs_bound || in.topology->neighbours(i).size() > 2 || in.speed[i] != in.speed[0];
  }
  needs_bound = needs_bound || edges / 2 >= static_cast<std::size_t>(processors);  // a cycle
  for (std::int64_t phase = 0; phase < max_phases_; ++phase) {
    const auto& load = plan.final_loads;
    std::vector<UnitTransfer> transfers;
    for (int i = 0; i < processors; ++i)
      for (int j : in.topology->neighbours(i)) {
        if (j < i) continue;
        const std::int64_t x = pair_share(load[i], load[j], in.speed[i], in.speed[j]);
        if (x > 0) transfers.push_back({i, j, x});
        if (x < 0) transfers.push_back({j, i, -x});
      }
    if (transfers.empty()) break;  // locally balanced
    if (needs_bound) {
      limit_to_local_average(transfers, load, in.speed, /*senders=*/true);
      limit_to_local_average(transfers, load, in.speed, /*senders=*/false);
    }
    append_phase(plan, std::move(transfers));
    if (plan.phases.size() <= static_cast<std::size_t>(phase)) break;  // nothing could move
  }
  return plan;
}

}  // namespace lbb
