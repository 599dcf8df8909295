#include "balancers/partition/lpt.h"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <utility>

#include "balancers/partition/partition_input.h"

namespace lbb {

Owners lpt_partition(std::span<const double> weights, std::span<const double> speeds) {
  check_partition_input(weights, speeds);
  const int m = static_cast<int>(weights.size());
  // (weight, module) pairs sorted by decreasing weight, ties by index: contiguous to sort.
  std::vector<std::pair<double, int>> order(m);
  for (int i = 0; i < m; ++i) order[i] = {weights[i], i};
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });

  // Processors of one speed finish a module in the order of their loads, so one min-heap per
  // distinct speed finds the earliest finish in O(distinct speeds * log P) per module.
  using Entry = std::pair<double, int>;  // (weight assigned so far, processor)
  using MinHeap = std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>>;
  std::map<double, MinHeap> by_speed;
  for (int p = 0; p < static_cast<int>(speeds.size()); ++p) by_speed[speeds[p]].push({0.0, p});

  Owners owner(m);
  for (const auto& [weight, module] : order) {
    MinHeap* chosen = nullptr;
    double chosen_finish = 0;
    int chosen_proc = 0;
    for (auto& [speed, heap] : by_speed) {
      const auto [assigned, proc] = heap.top();
      const double finish = (assigned + weight) / speed;
      if (!chosen || finish < chosen_finish || (finish == chosen_finish && proc < chosen_proc)) {
        chosen = &heap;
        chosen_finish = finish;
        chosen_proc = proc;
      }
    }
    const Entry top = chosen->top();
    chosen->pop();
    chosen->push({top.first + weight, top.second});
    owner[module] = top.second;
  }
  return owner;
}

BalancerInfo LptPartition::info() {
  return {"lpt",
          BalancerRole::kPartition,
          "largest cost first onto the processor where it finishes first (Graham 1969), "
          "speed-aware; ignores module order",
          {},
          [](const Params&) { return std::make_unique<LptPartition>(); }};
}

Decision LptPartition::decide(const LoadView& view) {
  return {true, lpt_partition(view.cost, view.speed), 1};
}

}  // namespace lbb
