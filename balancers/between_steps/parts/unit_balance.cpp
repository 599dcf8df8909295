#include "balancers/between_steps/parts/unit_balance.h"

#include <stdexcept>

#include "balancers/balancer.h"

namespace lbb {

std::vector<std::string> unit_level_balancer_names() {
  std::vector<std::string> names;
  for (const auto& info : balancer_registry())
    if (info.has_unit_level()) names.push_back(info.name);
  return names;
}

namespace {

std::string supported_list() {
  std::string out;
  for (const auto& name : unit_level_balancer_names()) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

const BalancerInfo& unit_level_info(std::string_view name) {
  const BalancerInfo* info = find_balancer(name);
  if (!info)
    throw std::invalid_argument("unknown balancer '" + std::string(name) +
                                "'; balancers with a unit-level form: " + supported_list());
  if (info->role == BalancerRole::kPartition)
    throw std::invalid_argument(
        "'" + info->name +
        "' is a static partitioner; balancers with a unit-level form: " + supported_list());
  if (!info->has_unit_level())
    throw std::invalid_argument("'" + info->name +
                                "' decides on modules only and has no unit-level form; "
                                "balancers with one: " +
                                supported_list());
  return *info;
}

TransferPlan plan_units(std::string_view name, const Params& given, const UnitLoads& in) {
  const BalancerInfo& info = unit_level_info(name);
  const auto balancer = info.make_unit_level(resolve_params(info.params, given));
  if (auto err = unit_loads_error(in)) throw std::invalid_argument(*err);
  return balancer->plan(in);
}

}  // namespace lbb
