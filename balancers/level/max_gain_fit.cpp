#include "balancers/level/max_gain_fit.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "balancers/level/tree_mesh.h"

namespace lbb {

namespace {

// The processors' loads grouped by speed, each group ordered by load, so a task's least finish
// (load_q + E) / speed_q, and the processors reaching it, come without pricing every processor.
class LeastFinish {
 public:
  explicit LeastFinish(std::span<const double> speed) : load_(speed.size(), 0.0) {
    std::map<double, int> group_of_speed;
    for (std::size_t q = 0; q < speed.size(); ++q) {
      const auto [it, added] =
          group_of_speed.emplace(speed[q], static_cast<int>(group_speed_.size()));
      if (added) group_speed_.push_back(speed[q]), groups_.emplace_back();
      group_.push_back(it->second);
      groups_[it->second].emplace(0.0, static_cast<int>(q));
    }
  }
  double load(int q) const { return load_[q]; }
  double least(double cost) const {
    double f = INFINITY;
    for (std::size_t g = 0; g < groups_.size(); ++g)
      f = std::min(f, (groups_[g].begin()->first + cost) / group_speed_[g]);
    return f;
  }
  // Of the processors of least finish, the one nearest `from`, then of lowest index.
  int nearest_least(double cost, int from, const Topology& topology) const {
    const double f = least(cost);
    int best = -1, best_distance = INT_MAX;
    for (std::size_t g = 0; g < groups_.size(); ++g)
      for (auto it = groups_[g].begin();
           it != groups_[g].end() && (it->first + cost) / group_speed_[g] == f; ++it) {
        const int d = topology.distance(from, it->second);
        if (std::tie(d, it->second) < std::tie(best_distance, best))
          best = it->second, best_distance = d;
      }
    return best;
  }
  void add(int q, double cost) {
    auto& group = groups_[group_[q]];
    group.erase({load_[q], q});
    load_[q] += cost;
    group.emplace(load_[q], q);
  }

 private:
  std::vector<double> load_;
  std::vector<double> group_speed_;
  std::vector<int> group_;  // each processor's speed group
  std::vector<std::set<std::pair<double, int>>> groups_;
};

// The processor of least finish + hops x hop cost for a task of cost e made on `from`,
// searched outward from `from` until no farther processor can win: each one's cost is at least
// the least finish plus its hops x hop cost, and ties go to the nearer, then the lower index.
int nearest_least_loss(const LeastFinish& finish, double e, double hop, int from,
                       std::span<const double> speed, const Topology& topology,
                       const ProcessorRings& rings) {
  const double floor = finish.least(e);
  double best_loss = INFINITY;
  int best = -1, best_distance = INT_MAX;
  for (int q : rings.from(from)) {
    const int d = topology.distance(from, q);
    if (floor + d * hop >= best_loss) break;
    const double loss = (finish.load(q) + e) / speed[q] + d * hop;
    if (std::tie(loss, d) < std::tie(best_loss, best_distance))
      best = q, best_loss = loss, best_distance = d;
  }
  return best;
}

}  // namespace

std::vector<int> max_gain_fit(std::span<const double> cost, std::span<const double> hop_cost,
                              std::span<const int> creator, std::span<const double> speed,
                              const Topology& topology, const ProcessorRings* rings) {
  if (creator.size() != cost.size() || (!hop_cost.empty() && hop_cost.size() != cost.size()))
    throw std::invalid_argument("max_gain_fit: costs, hop costs and creators differ in length");
  auto hop = [&](int a) { return hop_cost.empty() ? 0.0 : hop_cost[a]; };
  std::vector<int> order(cost.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    return std::pair{hop(x), cost[x]} > std::pair{hop(y), cost[y]};
  });
  std::optional<ProcessorRings> own;
  const bool moves_cost =
      std::any_of(hop_cost.begin(), hop_cost.end(), [](double h) { return h > 0; });
  if (moves_cost && (!rings || !rings->serves(topology))) rings = &own.emplace(topology);
  LeastFinish finish(speed);
  std::vector<int> owner(cost.size());
  for (int a : order) {
    owner[a] = hop(a) > 0 ? nearest_least_loss(finish, cost[a], hop(a), creator[a], speed, topology,
                                               *rings)
                          : finish.nearest_least(cost[a], creator[a], topology);
    finish.add(owner[a], cost[a]);
  }
  return owner;
}

BalancerInfo MaxGainFit::info() {
  return {"max_gain_fit",
          BalancerRole::kLevel,
          "tasks by non-increasing hop cost, each where its finish plus its communication is "
          "least, any distance (a reading of Hwang & Hong 2001's yardstick L4, Kopidakis et al. "
          "1997, whose steps the papers do not give)",
          {},
          [](const Params&) { return std::make_unique<MaxGainFit>(); }};
}

Decision MaxGainFit::decide(const LoadView& view) {
  if (!view.topology) throw std::invalid_argument("max_gain_fit needs a topology");
  if (!rings_ || !rings_->serves(*view.topology)) rings_.emplace(*view.topology);
  return {true,
          max_gain_fit(view.cost, view.hop_cost, creators_of(view), view.speed, *view.topology,
                       &*rings_),
          1};
}

}  // namespace lbb
