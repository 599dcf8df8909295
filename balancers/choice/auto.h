#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "balancers/balancer.h"
#include "balancers/in_step/profiled_redistribution.h"

namespace lbb {

inline constexpr std::string_view kAutoChoice = "auto";

// Zaki, Li & Parthasarathy 1997's customized dynamic load balancing, `dynamic: auto`: profile
// the first steps, predict each candidate scheme's total with the paper's cost model, run the
// cheapest. Its entry declares the name, role and parameters; it has no Balancer object of its
// own (make is null): the runner profiles and then runs the chosen scheme's
// (harness/papers/auto_choice.h).
BalancerInfo customized_choice_info();

// The schemes a resolved entry's `candidates` names, in its order.
std::vector<std::string> auto_candidates(const Params& resolved);
// The scheme a candidate names; nullopt for `none` or a name it does not know.
std::optional<ProfiledScheme> profiled_scheme(std::string_view name);
// What make_balancer checks for a balancer that has an object: the entry's parameters, and
// candidates that are known schemes or none. Throws ParamError or std::invalid_argument.
void check_auto_params(const Params& given);

}  // namespace lbb
