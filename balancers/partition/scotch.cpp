#include "balancers/partition/scotch.h"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "balancers/partition/integer_weights.h"
#include "balancers/partition/partition_input.h"

// scotch.h needs FILE and the fixed-width integers declared first.
#include <scotch.h>

namespace lbb {
namespace {

void check(int rc, const char* call) {
  if (rc != 0) throw std::runtime_error(std::string("scotch: ") + call + " failed");
}

// Scotch's objects, released however the mapping ends.
struct Mapping {
  SCOTCH_Graph graph;
  SCOTCH_Arch arch;
  SCOTCH_Strat strat;
  Mapping() { SCOTCH_graphInit(&graph), SCOTCH_archInit(&arch), SCOTCH_stratInit(&strat); }
  ~Mapping() { SCOTCH_stratExit(&strat), SCOTCH_archExit(&arch), SCOTCH_graphExit(&graph); }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
};

}  // namespace

Owners scotch_owners(const LoadView& view, double imbalance, std::uint64_t seed) {
  check_partition_input(view.cost, view.speed);
  const SCOTCH_Num n = view.modules(), parts = view.processors();
  if (parts == 1 || n == 0) return Owners(n, 0);
  std::vector<SCOTCH_Num> first(n + 1, 0), adjacency;
  for (SCOTCH_Num m = 0; m < n; ++m) {
    if (view.communication)
      for (int k : view.communication->neighbours(m)) adjacency.push_back(k);
    first[m + 1] = static_cast<SCOTCH_Num>(adjacency.size());
  }
  const SCOTCH_Num links = static_cast<SCOTCH_Num>(adjacency.size());
  adjacency.push_back(0);  // a valid pointer with no links
  std::vector<SCOTCH_Num> weight = integer_weights<SCOTCH_Num>(view.cost);
  std::vector<SCOTCH_Num> capacity = integer_weights<SCOTCH_Num>(view.speed);
  std::vector<SCOTCH_Num> part(n);
  Mapping s;
  SCOTCH_randomSeed(static_cast<SCOTCH_Num>(seed));
  SCOTCH_randomReset();  // the same mapping for the same input, run after run
  check(SCOTCH_graphBuild(&s.graph, 0, n, first.data(), nullptr, weight.data(), nullptr, links,
                          adjacency.data(), nullptr),
        "SCOTCH_graphBuild");
  check(SCOTCH_graphCheck(&s.graph), "SCOTCH_graphCheck");
  check(SCOTCH_archCmpltw(&s.arch, parts, capacity.data()), "SCOTCH_archCmpltw");
  check(SCOTCH_stratGraphMapBuild(&s.strat, SCOTCH_STRATDEFAULT, parts, imbalance - 1),
        "SCOTCH_stratGraphMapBuild");
  check(SCOTCH_graphMap(&s.graph, &s.arch, &s.strat, part.data()), "SCOTCH_graphMap");
  return Owners(part.begin(), part.end());
}

BalancerInfo ScotchPartition::info() {
  return {
      "scotch",
      BalancerRole::kPartition,
      "Scotch static mapping of the communication graph weighted by predicted costs onto parts "
      "sized by speed (Pellegrini & Roman 1996); the graph partitioner beside METIS",
      {real_param("imbalance", 1.05, "largest part's weight over its share, at most", 1.001, 10.0),
       int_param("seed", 1, "Scotch's random seed", 0, 1 << 30)},
      [](const Params& p) {
        return std::make_unique<ScotchPartition>(p.real("imbalance"),
                                                 static_cast<std::uint64_t>(p.integer("seed")));
      }};
}

Decision ScotchPartition::decide(const LoadView& view) {
  return {true, scotch_owners(view, imbalance_, seed_), 1};
}

}  // namespace lbb
