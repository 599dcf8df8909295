#include "balancers/choice/auto.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "balancers/partition/block.h"

namespace lbb {

BalancerInfo customized_choice_info() {
  std::vector<ParamSpec> params = {
      string_param("candidates", "gcdlb,gddlb,lcdlb,lddlb",
                   "comma-separated schemes to choose from (gcdlb, gddlb, lcdlb, lddlb, none)"),
      int_param("horizon_steps", 0,
                "steps the cost model predicts each candidate over; 0: the run's own (warm-up "
                "included; the runner sets it)",
                0),
      int_param("group_size", 4, "K of the local candidates", 1),
      real_param("move_threshold", 0.01, "the candidates' movement threshold", 0.0, 1.0),
      real_param("profit", 0.10, "the candidates' profitability rule", 0.0, 1.0),
      int_param("max_syncs", 8, "the candidates' synchronisations of a group per phase, at most", 1,
                1000)};
  for (ParamSpec& spec : zaki_cost_params()) params.push_back(std::move(spec));
  BalancerInfo info{std::string(kAutoChoice), BalancerRole::kChoice,
                    "customized choice: at the run's first synchronisation, predict each "
                    "candidate's total with the cost model (synchronisation, instructions, bytes "
                    "moved, computation) and run the cheapest from there on (Zaki, Li & "
                    "Parthasarathy 1997)",
                    std::move(params),
                    [](const Params& p) { return std::make_unique<CustomizedChoice>(p); }};
  return info;
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

void check_auto_params(const Params& resolved) {
  const std::vector<std::string> names = auto_candidates(resolved);
  if (names.empty()) throw std::invalid_argument("candidates: name at least one scheme");
  for (const auto& n : names)
    if (n != "none" && !profiled_scheme(n))
      throw std::invalid_argument("candidates: unknown scheme '" + n +
                                  "' (known: gcdlb, gddlb, lcdlb, lddlb, none)");
}

Params candidate_params(const std::string& name, const Params& auto_resolved) {
  const BalancerInfo* info = find_balancer(name);
  Params given;
  for (const auto& spec : info->params)
    if (auto it = auto_resolved.values().find(spec.name); it != auto_resolved.values().end())
      given.set(spec.name, it->second);
  return resolve_params(info->params, given);
}

SchemeProfile profile_at_first_sync(const LoadView& view) {
  const int procs = view.processors();
  SchemeProfile q;
  q.work.assign(procs, 0.0);
  q.rate.assign(procs, 0.0);
  for (int m = 0; m < view.modules(); ++m) q.work[view.owner[m]] += 1.0;
  double per_speed = 0;
  int known = 0;
  for (int p = 0; p < procs; ++p) {
    const double done = view.work_done.empty() ? 0.0 : view.work_done[p];
    q.work[p] += done;
    if (!view.busy.empty() && view.busy[p] > 0 && done > 0) {
      q.rate[p] = done / view.busy[p];
      per_speed += q.rate[p] / view.speed[p];
      ++known;
    }
  }
  // No processor measured (a view from elsewhere than an in-step synchronisation): modules at
  // their mean cost per unit speed.
  double cost = 0;
  for (double c : view.cost) cost += c;
  cost = view.modules() > 0 ? cost / view.modules() : 0;
  per_speed = known > 0 ? per_speed / known : cost > 0 ? 1 / cost : 1;
  for (int p = 0; p < procs; ++p)
    if (q.rate[p] == 0) q.rate[p] = per_speed * view.speed[p];
  q.modules = static_cast<int>(std::lround(std::accumulate(q.work.begin(), q.work.end(), 0.0)));
  q.largest_module = 1.0;
  double bytes = 0;
  for (std::uint64_t b : view.bytes) bytes += static_cast<double>(b);
  q.bytes_per_module = view.bytes.empty() ? 0.0 : bytes / static_cast<double>(view.bytes.size());
  return q;
}

std::vector<AutoPrediction> predict_candidates(const Params& p, const SchemeProfile& profile,
                                               int steps) {
  SchemeSettings s;
  s.group_size = static_cast<int>(p.integer("group_size"));
  s.profit = p.real("profit");
  s.move_threshold = p.real("move_threshold");
  s.network = {p.real("latency"), p.real("bandwidth"), zaki_machine(p), p.real("atomic_latency")};
  std::vector<AutoPrediction> out;
  for (const std::string& name : auto_candidates(p)) {
    const auto scheme = profiled_scheme(name);
    out.push_back({name, scheme ? predict_scheme_total(*scheme, profile, steps, s)
                                : predict_static_total(profile, steps)});
  }
  return out;
}

CustomizedChoice::CustomizedChoice(const Params& resolved) : params_(resolved) {
  check_auto_params(resolved);
}

Decision CustomizedChoice::decide(const LoadView& view) {
  if (view.owner.empty() && !scheme_)  // a start, no profile: the schemes' block start
    return {true, block_owners(view.modules(), view.processors()), 0};
  if (chosen_.empty()) {
    const int horizon = static_cast<int>(params_.integer("horizon_steps"));
    predictions_ = predict_candidates(params_, profile_at_first_sync(view), std::max(horizon, 1));
    const auto best =
        std::min_element(predictions_.begin(), predictions_.end(),
                         [](const auto& a, const auto& b) { return a.total < b.total; });
    chosen_ = best->name;
    if (chosen_ != "none") scheme_ = make_balancer(chosen_, candidate_params(chosen_, params_));
    decided_at_step_ = view.step;
  }
  if (!scheme_) return Decision{};  // `none`: keep the assignment
  return scheme_->decide(view);
}

bool CustomizedChoice::redundant() const {
  return scheme_ && scheme_->redundant();
}

SyncTrigger CustomizedChoice::sync_trigger() const {
  if (scheme_) return scheme_->sync_trigger();
  if (!chosen_.empty()) return {};  // `none`: nothing to synchronise for
  return {true, 0, static_cast<int>(params_.integer("max_syncs"))};
}

std::vector<BalancerFigure> CustomizedChoice::figures() const {
  std::vector<BalancerFigure> out;
  for (const AutoPrediction& a : predictions_) out.push_back({"auto_predicted_" + a.name, a.total});
  if (!chosen_.empty()) {
    out.push_back({"auto_chose_" + chosen_, 1.0});
    out.push_back({"auto_decision_step", static_cast<double>(decided_at_step_)});
  }
  return out;
}

}  // namespace lbb
