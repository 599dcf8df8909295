#pragma once
// `lbbench balance`: one dynamic balancer's decision on integer work units per processor
// (Horton 1993's setting), as one JSON object.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lbb {

struct BalanceRequest {
  std::string method;               // a balancer with a unit-level form
  std::string topology;             // chain, ring, mesh2d, hypercube, complete
  std::string loads;                // "l0,l1,...": non-negative units per processor
  std::string speeds;               // "s0,s1,...": relative speeds; empty: all 1
  std::vector<std::string> params;  // "key=value", checked against the balancer's parameters
  int step = 0;                     // varies the draws of randomised balancers
  std::string graph;  // "a-b,c-d,...": the communication graph between processors (Horton 1993,
                      // for multilevel's bisect: communication); empty: none
};

// Keys: method, topology, processors, params (resolved), loads, speeds, graph (edges), phases (each
// with its transfers {from, to, units} and the loads after it), final_loads, imbalance (2-norm
// distance from the speed-proportional balanced vector), units_moved. Throws std::invalid_argument
// or ParamError with a message naming the bad input.
nlohmann::json balance_report(const BalanceRequest& request);

}  // namespace lbb
