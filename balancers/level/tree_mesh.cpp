#include "balancers/level/tree_mesh.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "balancers/partition/block.h"
#include "core/level_cost.h"

namespace lbb {

double select_task_threshold(std::vector<double> costs, double delta) {
  if (!(delta > 0)) return -std::numeric_limits<double>::infinity();
  std::size_t lo = 0, hi = costs.size();
  double below = 0;  // sum of the costs known to lie below [lo, hi)
  while (lo < hi) {
    const double pivot = costs[lo + (hi - lo) / 2];
    // Three-way partition of [lo, hi): < pivot, == pivot, > pivot.
    auto first = costs.begin() + lo, last = costs.begin() + hi;
    auto less_end = std::partition(first, last, [&](double e) { return e < pivot; });
    auto equal_end = std::partition(less_end, last, [&](double e) { return e == pivot; });
    double sum_less = 0, sum_equal = 0;
    for (auto it = first; it != less_end; ++it) sum_less += *it;
    for (auto it = less_end; it != equal_end; ++it) sum_equal += *it;
    if (below + sum_less >= delta) {
      hi = static_cast<std::size_t>(less_end - costs.begin());
    } else if (below + sum_less + sum_equal >= delta) {
      return pivot;
    } else {
      below += sum_less + sum_equal;
      lo = static_cast<std::size_t>(equal_end - costs.begin());
    }
  }
  return std::numeric_limits<double>::infinity();
}

namespace {

struct Rect {
  int r0, r1, c0, c1;  // rows [r0, r1) x cols [c0, c1)
  int rows() const { return r1 - r0; }
  int cols() const { return c1 - c0; }
};

class RecursiveHalving {
 public:
  RecursiveHalving(std::span<const double> cost, std::span<const double> hop_cost,
                   std::span<const int> creator, std::span<const double> speed,
                   const Topology& topology, const TreeMeshOptions& options)
      : cost_(cost), speed_(speed), topology_(topology) {
    const int p = static_cast<int>(speed.size());
    const bool mesh = topology.kind() == TopologyKind::kMesh2d;
    rows_ = mesh ? topology.mesh_rows() : 1;
    cols_ = mesh ? topology.mesh_cols() : p;
    clamp_is_nearest_ = mesh || topology.kind() == TopologyKind::kChain;
    double work = 0;
    for (double c : cost) work += c;
    const double mean_load = p > 0 ? work / p : 0.0;
    epsilon_ = options.epsilon * mean_load;
    const double c_max = options.c_max * mean_load;
    const std::size_t m = cost.size();
    plan_.owner.assign(creator.begin(), creator.end());
    plan_.limit.resize(m);
    plan_.travelled.assign(m, 0);
    remaining_.resize(m);
    for (std::size_t a = 0; a < m; ++a) {
      plan_.limit[a] = migration_limit(c_max, hop_cost.empty() ? 0.0 : hop_cost[a]);
      remaining_[a] = plan_.limit[a];
    }
  }

  TreeMeshPlan run() {
    std::vector<int> tasks(cost_.size());
    for (std::size_t a = 0; a < tasks.size(); ++a) tasks[a] = static_cast<int>(a);
    balance(Rect{0, rows_, 0, cols_}, 0, tasks);
    return std::move(plan_);
  }

 private:
  bool inside(const Rect& g, int proc) const {
    const int r = proc / cols_, c = proc % cols_;
    return r >= g.r0 && r < g.r1 && c >= g.c0 && c < g.c1;
  }

  double capacity(const Rect& g) const {
    double s = 0;
    for (int r = g.r0; r < g.r1; ++r)
      for (int c = g.c0; c < g.c1; ++c) s += speed_[r * cols_ + c];
    return s;
  }

  // The processor of `g` nearest to `from` (ties: lowest index).
  int nearest(const Rect& g, int from) const {
    if (clamp_is_nearest_) {  // Manhattan distance: clamp both coordinates into the rectangle
      const int r = std::clamp(from / cols_, g.r0, g.r1 - 1);
      const int c = std::clamp(from % cols_, g.c0, g.c1 - 1);
      return r * cols_ + c;
    }
    int best = -1, best_d = INT_MAX;
    for (int r = g.r0; r < g.r1; ++r)
      for (int c = g.c0; c < g.c1; ++c) {
        const int q = r * cols_ + c;
        const int d = topology_.distance(from, q);
        if (d < best_d) best = q, best_d = d;
      }
    return best;
  }

  // LoadBalancing: halve g (vertical cut on even rounds, horizontal on odd ones, whichever
  // direction can still be cut), balance the halves, recurse into each.
  void balance(const Rect& g, int round, std::vector<int>& tasks) {
    if (g.rows() * g.cols() <= 1) return;
    plan_.phases = std::max(plan_.phases, round + 1);
    bool vertical = round % 2 == 0;
    if (vertical && g.cols() == 1) vertical = false;
    if (!vertical && g.rows() == 1) vertical = true;
    Rect a = g, b = g;
    if (vertical) {
      a.c1 = b.c0 = g.c0 + g.cols() / 2;
    } else {
      a.r1 = b.r0 = g.r0 + g.rows() / 2;
    }
    migrate_tasks(a, b, tasks);
    std::vector<int> in_a, in_b;
    for (int t : tasks) (inside(a, plan_.owner[t]) ? in_a : in_b).push_back(t);
    tasks.clear();
    tasks.shrink_to_fit();
    balance(a, round + 1, in_a);
    balance(b, round + 1, in_b);
  }

  // MigrateTasks(A, B): move load from the overloaded half to the other until the halves hold
  // shares proportional to their speeds within epsilon.
  void migrate_tasks(const Rect& a, const Rect& b, const std::vector<int>& tasks) {
    double load_a = 0, load_b = 0;
    for (int t : tasks) (inside(a, plan_.owner[t]) ? load_a : load_b) += cost_[t];
    const double cap_a = capacity(a), cap_b = capacity(b);
    const double excess_a = load_a - (load_a + load_b) * cap_a / (cap_a + cap_b);
    double delta = std::abs(excess_a);  // Delta_L: load to move
    if (delta < epsilon_ || delta == 0) return;
    const Rect& from = excess_a > 0 ? a : b;
    const Rect& to = excess_a > 0 ? b : a;
    // S: tasks of the overloaded half small enough to move and able to reach the other half.
    std::vector<int> movable;
    for (int t : tasks) {
      const int at = plan_.owner[t];
      if (!inside(from, at) || !(cost_[t] > 0) || cost_[t] > delta) continue;
      if (remaining_[t] >= topology_.distance(at, nearest(to, at))) movable.push_back(t);
    }
    // Classes S_n of equal remaining budget, largest budget first; stable: task order within.
    std::stable_sort(movable.begin(), movable.end(),
                     [&](int x, int y) { return remaining_[x] > remaining_[y]; });
    for (std::size_t first = 0; first < movable.size();) {
      std::size_t last = first;
      while (last < movable.size() && remaining_[movable[last]] == remaining_[movable[first]])
        ++last;
      std::vector<double> class_costs;
      for (std::size_t i = first; i < last; ++i) class_costs.push_back(cost_[movable[i]]);
      const double threshold = select_task_threshold(std::move(class_costs), delta);
      for (std::size_t i = first; i < last; ++i) {
        const int t = movable[i];
        // SelectTask's choice, and only moves that shrink the imbalance |excess - E_a| < excess;
        // a move that tips the balance over ends this halving (the excess changed sides).
        if (cost_[t] > threshold || cost_[t] >= 2 * delta) continue;
        const int at = plan_.owner[t];
        const int dest = nearest(to, at);
        const int hops = topology_.distance(at, dest);
        remaining_[t] -= hops;
        plan_.travelled[t] += hops;
        plan_.owner[t] = dest;
        ++plan_.moves;
        delta -= cost_[t];
        if (delta <= epsilon_) return;
      }
      first = last;
    }
  }

  std::span<const double> cost_;
  std::span<const double> speed_;
  const Topology& topology_;
  int rows_ = 1, cols_ = 1;
  bool clamp_is_nearest_ = false;
  double epsilon_ = 0;
  std::vector<int> remaining_;  // t_a left
  TreeMeshPlan plan_;
};

}  // namespace

TreeMeshPlan tree_mesh_balance(std::span<const double> cost, std::span<const double> hop_cost,
                               std::span<const int> creator, std::span<const double> speed,
                               const Topology& topology, const TreeMeshOptions& options) {
  if (creator.size() != cost.size() || (!hop_cost.empty() && hop_cost.size() != cost.size()))
    throw std::invalid_argument("tree_mesh: costs, hop costs and creators differ in length");
  if (topology.size() != static_cast<int>(speed.size()))
    throw std::invalid_argument("tree_mesh: topology and speeds differ in processor count");
  return RecursiveHalving(cost, hop_cost, creator, speed, topology, options).run();
}

std::vector<int> creators_of(const LoadView& view) {
  if (!view.owner.empty()) return {view.owner.begin(), view.owner.end()};
  return block_owners(view.modules(), view.processors());
}

BalancerInfo TreeMesh::info() {
  return {"tree_mesh",
          BalancerRole::kLevel,
          "tree level on a mesh: recursive halving moving tasks within their distance budget "
          "t_a = floor(C_max / (B_a + M_a)) (Hwang & Hong 2001, L1)",
          {
              real_param("c_max", 1.0,
                         "C_max, the communication limit, as a multiple of sum E_a / N", 0),
              real_param("epsilon", 0.01,
                         "imbalance tolerance as a fraction of the mean processor load", 0),
          },
          [](const Params& p) {
            return std::make_unique<TreeMesh>(TreeMeshOptions{p.real("c_max"), p.real("epsilon")});
          }};
}

Decision TreeMesh::decide(const LoadView& view) {
  if (!view.topology) throw std::invalid_argument("tree_mesh needs a topology");
  const std::vector<int> creator = creators_of(view);
  TreeMeshPlan plan =
      tree_mesh_balance(view.cost, view.hop_cost, creator, view.speed, *view.topology, options_);
  const bool moved = plan.owner != creator || view.owner.empty();
  return {moved, std::move(plan.owner), plan.phases};
}

}  // namespace lbb
