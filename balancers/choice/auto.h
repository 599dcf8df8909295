#pragma once
#include <string_view>

#include "balancers/balancer.h"

namespace lbb {

inline constexpr std::string_view kAutoChoice = "auto";

// Zaki, Li & Parthasarathy 1997's customized dynamic load balancing, `dynamic: auto`: profile
// the first steps, predict each candidate scheme's total with the paper's cost model, run the
// cheapest. Its entry declares the name, role and parameters; it has no Balancer object of its
// own (make is null): the runner profiles and then runs the chosen scheme's
// (harness/papers/auto_choice.h).
BalancerInfo customized_choice_info();

}  // namespace lbb
