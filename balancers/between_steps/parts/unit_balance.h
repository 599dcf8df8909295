#pragma once
// Runs a registered balancer on integer work units (Horton 1993's setting), by name: what the
// `balance` command and the tests call.
#include <string>
#include <string_view>
#include <vector>

#include "balancers/between_steps/parts/transfer_plan.h"
#include "core/params.h"

namespace lbb {

struct BalancerInfo;

// Names of the registered balancers with a unit-level form, in registry order.
std::vector<std::string> unit_level_balancer_names();

// The registry entry of a balancer with a unit-level form. Throws std::invalid_argument naming
// the ones there are when `name` is unknown, static or decides on modules only.
const BalancerInfo& unit_level_info(std::string_view name);

// The balancer's plan for the given units. Throws std::invalid_argument for an unknown name, a
// balancer without a unit-level form or inconsistent input, ParamError for bad parameters.
TransferPlan plan_units(std::string_view name, const Params& given, const UnitLoads& in);

}  // namespace lbb
