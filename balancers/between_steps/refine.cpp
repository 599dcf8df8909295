#include "balancers/between_steps/refine.h"

#include <numeric>

#include "balancers/between_steps/reassignment.h"

namespace lbb {

BalancerInfo RefineBalancer::info() {
  return {"refine",
          BalancerRole::kBetweenSteps,
          "processors over threshold x their share give away the fewest modules that bring them "
          "under it (Charm++'s RefineLB idea)",
          {real_param("threshold", 1.05, "a processor's limit, x its speed-proportional share", 1.0,
                      100.0)},
          [](const Params& p) { return std::make_unique<RefineBalancer>(p.real("threshold")); }};
}

namespace {

// The state of one refinement: loads and limits in seconds of nominal cost.
struct Refinement {
  const LoadView& view;
  Owners owner;
  std::vector<double> load, limit;
  std::vector<std::vector<int>> held;

  // The receiver with the most room for a module of cost c, or -1 when none fits it.
  int receiver(double c, int donor) const {
    int best = -1;
    for (int p = 0; p < static_cast<int>(load.size()); ++p)
      if (p != donor && load[p] + c <= limit[p] &&
          (best < 0 || limit[p] - load[p] > limit[best] - load[best]))
        best = p;
    return best;
  }

  // Moves one module off `donor`; false when none of its modules fits anywhere.
  bool shed_one(int donor) {
    const double excess = load[donor] - limit[donor];
    int pick = -1, to = -1;
    bool alone = false;  // pick sheds the whole excess by itself
    for (int m : held[donor]) {
      const double c = view.cost[m];
      const int r = receiver(c, donor);
      if (r < 0) continue;
      const bool enough = c >= excess;
      const double pc = pick < 0 ? 0 : view.cost[pick];
      if (pick < 0 || (enough && (!alone || c < pc)) || (!enough && !alone && c > pc))
        pick = m, to = r, alone = enough;
    }
    if (pick < 0) return false;
    load[donor] -= view.cost[pick];
    load[to] += view.cost[pick];
    owner[pick] = to;
    std::erase(held[donor], pick);
    held[to].push_back(pick);
    return true;
  }

  // The most overloaded processor (load over limit), not yet given up on; -1 when none.
  int donor(const std::vector<char>& stuck) const {
    int best = -1;
    for (int p = 0; p < static_cast<int>(load.size()); ++p)
      if (!stuck[p] && load[p] > limit[p] &&
          (best < 0 || load[p] / limit[p] > load[best] / limit[best]))
        best = p;
    return best;
  }
};

}  // namespace

Decision RefineBalancer::decide(const LoadView& view) {
  const int P = view.processors();
  const Owners before = starting_owners(view);
  Refinement r{view, before, std::vector<double>(P, 0.0), std::vector<double>(P),
               std::vector<std::vector<int>>(P)};
  const double total = std::accumulate(view.cost.begin(), view.cost.end(), 0.0);
  const double speeds = std::accumulate(view.speed.begin(), view.speed.end(), 0.0);
  for (int p = 0; p < P; ++p) r.limit[p] = threshold_ * total * view.speed[p] / speeds;
  for (int m = 0; m < view.modules(); ++m) {
    r.load[r.owner[m]] += view.cost[m];
    r.held[r.owner[m]].push_back(m);
  }
  std::vector<char> stuck(P, 0);
  for (int p = r.donor(stuck); p >= 0; p = r.donor(stuck))
    if (!r.shed_one(p)) stuck[p] = 1;
  return reassignment(view, before, std::move(r.owner));
}

}  // namespace lbb
