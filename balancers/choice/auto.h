#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "balancers/balancer.h"
#include "balancers/in_step/profiled_redistribution.h"
#include "balancers/in_step/zaki_scheme_prediction.h"

namespace lbb {

inline constexpr std::string_view kAutoChoice = "auto";

// Zaki, Li & Parthasarathy 1997's customized dynamic load balancing, `dynamic: auto`: the run
// starts as a global centralised in-step scheme; at its first synchronisation (the fastest
// processor ran all its modules) the profile since the start predicts each candidate's total
// with the paper's cost model, and the cheapest decides that synchronisation and runs the rest
// of the run (the executor takes its groups and its redundancy from the next phase on).
BalancerInfo customized_choice_info();

// The schemes a resolved entry's `candidates` names, in its order.
std::vector<std::string> auto_candidates(const Params& resolved);
// The scheme a candidate names; nullopt for `none` or a name it does not know.
std::optional<ProfiledScheme> profiled_scheme(std::string_view name);
// What make_balancer checks: the entry's parameters, and candidates that are known schemes or
// none. Throws ParamError or std::invalid_argument.
void check_auto_params(const Params& given);
// A candidate's own parameters, from the ones `auto` shares with it.
Params candidate_params(const std::string& name, const Params& auto_resolved);

// The profile at a first synchronisation, in the schemes' own load function (Zaki et al.:
// iterations done per second since the synchronisation before): per processor the modules it
// held at the start (done + unfinished) and its rate, modules done per busy second (a processor
// that did none is rated at the others' mean rate per unit speed, times its speed, as the schemes
// rate it; with none measured, the modules' mean cost per unit speed). Module units: the largest
// module is 1.
SchemeProfile profile_at_first_sync(const LoadView& view);

struct AutoPrediction {
  std::string name;  // a candidate: gcdlb, gddlb, lcdlb, lddlb or none
  double total = 0;  // s, predicted for `steps` steps
};
std::vector<AutoPrediction> predict_candidates(const Params& auto_resolved,
                                               const SchemeProfile& profile, int steps);

// The balancer: decides nothing itself; chooses at its first call and hands that call, and every
// later one, to its choice.
class CustomizedChoice final : public Balancer {
 public:
  explicit CustomizedChoice(const Params& resolved);
  Decision decide(const LoadView& view) override;
  bool redundant() const override;
  SyncTrigger sync_trigger() const override;
  std::vector<BalancerFigure> figures() const override;
  // The candidate chosen, empty before the first synchronisation.
  const std::string& chosen() const { return chosen_; }

 private:
  Params params_;
  std::vector<AutoPrediction> predictions_;
  std::string chosen_;
  std::unique_ptr<Balancer> scheme_;  // null: none chosen yet, or `none`
  int decided_at_step_ = -1;          // the run's step (warm-up included) of the choice
};

}  // namespace lbb
