#include "balancers/choice/auto.h"

#include <sstream>
#include <stdexcept>

namespace lbb {

BalancerInfo customized_choice_info() {
  return {
      std::string(kAutoChoice),
      BalancerRole::kChoice,
      "customized choice: profile the first steps, predict each candidate's total with the "
      "cost model (synchronisation, instructions, bytes moved, computation), run the cheapest "
      "(Zaki, Li & Parthasarathy 1997)",
      {string_param("candidates", "gcdlb,gddlb,lcdlb,lddlb",
                    "comma-separated schemes to choose from (gcdlb, gddlb, lcdlb, lddlb, none)"),
       int_param("profile_steps", 2, "steps run without balancing to profile rates and costs", 1,
                 1000),
       int_param("group_size", 4, "K of the local candidates", 1),
       real_param("move_threshold", 0.01, "the candidates' movement threshold", 0.0, 1.0),
       real_param("profit", 0.10, "the candidates' profitability rule", 0.0, 1.0),
       real_param("latency", 1e-6, "L: seconds per message in the cost model", 0.0),
       real_param("bandwidth", 1e10, "B: bytes per second in the cost model", 1.0)},
      nullptr};
}

std::vector<std::string> auto_candidates(const Params& resolved) {
  std::vector<std::string> out;
  std::istringstream in(resolved.text("candidates"));
  for (std::string name; std::getline(in, name, ',');)
    if (!name.empty()) out.push_back(name);
  return out;
}

std::optional<ProfiledScheme> profiled_scheme(std::string_view name) {
  if (name == "gcdlb") return ProfiledScheme::kGCDLB;
  if (name == "gddlb") return ProfiledScheme::kGDDLB;
  if (name == "lcdlb") return ProfiledScheme::kLCDLB;
  if (name == "lddlb") return ProfiledScheme::kLDDLB;
  return std::nullopt;
}

void check_auto_params(const Params& given) {
  const std::vector<std::string> names =
      auto_candidates(resolve_params(customized_choice_info().params, given));
  if (names.empty()) throw std::invalid_argument("candidates: name at least one scheme");
  for (const auto& n : names)
    if (n != "none" && !profiled_scheme(n))
      throw std::invalid_argument("candidates: unknown scheme '" + n +
                                  "' (known: gcdlb, gddlb, lcdlb, lddlb, none)");
}

}  // namespace lbb
