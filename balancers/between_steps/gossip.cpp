#include "balancers/between_steps/gossip.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "balancers/between_steps/reassignment.h"

namespace lbb {

BalancerInfo GossipBalancer::info() {
  return {
      "gossip",
      BalancerRole::kBetweenSteps,
      "underloaded processors' loads spread by gossip; overloaded ones send modules to the "
      "underloaded they heard of (Menon & Kale 2013, GrapevineLB; vt's TemperedLB criterion)",
      {int_param("fanout", 2, "processors each informed processor forwards to per round", 1, 64),
       int_param("rounds", 0, "gossip rounds; 0: ceil(log2 P)", 0, 1000),
       real_param("threshold", 1.05, "overloaded: above this x the average load", 1.0, 100.0),
       string_param(
           "criterion", "grapevine",
           "accept a transfer leaving the receiver at most at the average (grapevine) or under "
           "the sender's load (tempered, vt's TemperedLB)",
           {"grapevine", "tempered"}),
       int_param("iterations", 1, "gossip and transfer repeated on the loads they leave", 1, 100),
       int_param("seed", 1, "seed of the gossip targets and receivers drawn", 0)},
      [](const Params& p) {
        GossipSettings s;
        s.fanout = static_cast<int>(p.integer("fanout"));
        s.rounds = static_cast<int>(p.integer("rounds"));
        s.threshold = p.real("threshold");
        s.tempered = p.text("criterion") == "tempered";
        s.iterations = static_cast<int>(p.integer("iterations"));
        s.seed = static_cast<std::uint64_t>(p.integer("seed"));
        return std::make_unique<GossipBalancer>(s);
      }};
}

namespace {

// What each processor knows after the gossip: the underloaded processors it heard of (sorted).
std::vector<std::vector<int>> spread(const std::vector<double>& time, double average,
                                     const GossipSettings& s, std::mt19937_64& rng) {
  const int P = static_cast<int>(time.size());
  std::vector<std::vector<int>> known(P);
  std::vector<char> sends(P, 0);
  for (int p = 0; p < P; ++p)
    if (time[p] < average) known[p] = {p}, sends[p] = 1;
  const int rounds = s.rounds > 0 ? s.rounds : static_cast<int>(std::ceil(std::log2(P)));
  std::uniform_int_distribution<int> anyone(0, P - 1);
  for (int r = 0; r < rounds; ++r) {
    std::vector<std::vector<int>> next = known;
    std::vector<char> informed(P, 0);
    for (int p = 0; p < P; ++p) {
      if (!sends[p]) continue;
      for (int k = 0; k < s.fanout; ++k) {
        const int q = anyone(rng);
        std::vector<int> merged;
        std::set_union(next[q].begin(), next[q].end(), known[p].begin(), known[p].end(),
                       std::back_inserter(merged));
        if (merged.size() != next[q].size()) informed[q] = 1;
        next[q] = std::move(merged);
      }
    }
    known = std::move(next);
    sends = informed;  // who learned something forwards it in the next round
  }
  return known;
}

// One overloaded processor's transfers, on what it knows: receivers drawn by their room.
void transfer(int p, const std::vector<int>& known, std::vector<double>& estimate,
              std::vector<double>& time, Owners& owner, std::vector<int> modules,
              const LoadView& view, double average, const GossipSettings& s, std::mt19937_64& rng) {
  std::stable_sort(modules.begin(), modules.end(),
                   [&](int a, int b) { return view.cost[a] > view.cost[b]; });
  std::vector<double> room(known.size());
  for (int m : modules) {
    if (time[p] <= s.threshold * average) return;
    for (std::size_t i = 0; i < known.size(); ++i)
      room[i] = std::max(0.0, average - estimate[known[i]]);
    if (std::accumulate(room.begin(), room.end(), 0.0) <= 0) return;
    const int u = known[std::discrete_distribution<std::size_t>(room.begin(), room.end())(rng)];
    const double arrives = estimate[u] + view.cost[m] / view.speed[u];
    if (s.tempered ? arrives >= time[p] : arrives > average) continue;
    estimate[u] = arrives;
    time[u] += view.cost[m] / view.speed[u];
    time[p] -= view.cost[m] / view.speed[p];
    owner[m] = u;
  }
}

}  // namespace

Decision GossipBalancer::decide(const LoadView& view) {
  const int P = view.processors();
  const Owners before = starting_owners(view);
  Owners owner = before;
  std::mt19937_64 rng(settings_.seed * 0x9e3779b97f4a7c15ULL +
                      static_cast<std::uint64_t>(view.step + 1));
  const double average = std::accumulate(view.cost.begin(), view.cost.end(), 0.0) /
                         std::accumulate(view.speed.begin(), view.speed.end(), 0.0);
  for (int it = 0; it < settings_.iterations; ++it) {
    std::vector<double> time = processor_loads(owner, view.cost, view.speed);
    const std::vector<std::vector<int>> known = spread(time, average, settings_, rng);
    const std::vector<std::vector<int>> held = modules_by_processor(owner, P);
    // Each overloaded processor starts from the loads as gossiped, not the others' transfers.
    const std::vector<double> gossiped = time;
    for (int p = 0; p < P; ++p) {
      if (time[p] <= settings_.threshold * average) continue;
      std::vector<double> estimate = gossiped;
      transfer(p, known[p], estimate, time, owner, held[p], view, average, settings_, rng);
    }
  }
  return reassignment(view, before, std::move(owner));
}

}  // namespace lbb
