#include "balancers/between_steps/refine.h"

#include <iterator>
#include <limits>
#include <numeric>
#include <set>
#include <utility>

#include "balancers/between_steps/parts/reassignment.h"

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

// The state of one refinement: loads and limits in seconds of nominal cost, and each
// processor's modules ordered by cost (then index), so that a move is two searches.
struct Refinement {
  const LoadView& view;
  Owners owner;
  std::vector<double> load, limit;
  std::vector<std::set<std::pair<double, int>>> held;

  // The processor with the most room other than `donor` (the lowest on a tie): if a module fits
  // on none other, it fits nowhere.
  int roomiest(int donor) const {
    int best = -1;
    for (int p = 0; p < static_cast<int>(load.size()); ++p)
      if (p != donor && (best < 0 || limit[p] - load[p] > limit[best] - load[best])) best = p;
    return best;
  }

  // Moves one module off `donor`; false when none of its modules fits anywhere.
  bool shed_one(int donor) {
    const int to = roomiest(donor);
    if (to < 0) return false;
    const double excess = load[donor] - limit[donor], room = limit[to] - load[to];
    auto& mine = held[donor];
    // The smallest module that sheds the excess alone and fits...
    auto pick = mine.lower_bound({excess, -1});
    if (pick == mine.end() || pick->first > room) {
      // ...else the largest that fits (of its cost, the lowest index).
      pick = mine.upper_bound({room, std::numeric_limits<int>::max()});
      if (pick == mine.begin()) return false;
      pick = mine.lower_bound({std::prev(pick)->first, -1});
    }
    const auto [c, m] = *pick;
    mine.erase(pick);
    held[to].insert({c, m});
    load[donor] -= c;
    load[to] += c;
    owner[m] = to;
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
               std::vector<std::set<std::pair<double, int>>>(P)};
  const double total = std::accumulate(view.cost.begin(), view.cost.end(), 0.0);
  const double speeds = std::accumulate(view.speed.begin(), view.speed.end(), 0.0);
  for (int p = 0; p < P; ++p) r.limit[p] = threshold_ * total * view.speed[p] / speeds;
  for (int m = 0; m < view.modules(); ++m) {
    r.load[r.owner[m]] += view.cost[m];
    r.held[r.owner[m]].insert({view.cost[m], m});
  }
  std::vector<char> stuck(P, 0);
  for (int p = r.donor(stuck); p >= 0; p = r.donor(stuck))
    if (!r.shed_one(p)) stuck[p] = 1;
  return reassignment(view, before, std::move(r.owner));
}

}  // namespace lbb
