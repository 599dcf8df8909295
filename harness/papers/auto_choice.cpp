#include "harness/papers/auto_choice.h"

#include <algorithm>
#include <memory>

#include "harness/formats/trace_workload.h"
#include "harness/run/executor_registry.h"
#include "harness/run/reference_cache.h"
#include "harness/run/run_costs.h"

namespace lbb {
namespace {

// The chosen candidate's own parameters, from the ones `auto` shares with it.
Params candidate_params(const std::string& name, const Params& auto_params) {
  const BalancerInfo* info = find_balancer(name);
  Params given;
  for (const auto& spec : info->params)
    if (auto it = auto_params.values().find(spec.name); it != auto_params.values().end())
      given.set(spec.name, it->second);
  return resolve_params(info->params, given);
}

class RecordingSink final : public StepSink {
 public:
  void on_step(const StepRecord& r) override { records.push_back(r); }
  std::vector<StepRecord> records;
};

}  // namespace

bool is_auto_choice(const RunSpec& spec) {
  return spec.balancer.dynamic_name == kAutoChoice;
}

ProfileShape profile_shape(const RunSpec& spec) {
  ProfileShape shape;
  const WorkloadInfo* info = find_workload_kind(spec.workload);
  if (!info || !info->make) return shape;
  const std::unique_ptr<Workload> w = info->make(spec.workload_params);
  const int modules = w->module_count();
  for (int m = 0; m < modules; ++m)
    shape.bytes_per_module += static_cast<double>(w->state_bytes(m));
  if (modules > 0) shape.bytes_per_module /= modules;
  if (w->phases() < 2) return shape;
  for (int k = 0; k < w->phases(); ++k) shape.phase_share.push_back(w->predicted_phase_weights(k));
  for (int m = 0; m < modules; ++m) {
    double sum = 0;
    for (const auto& share : shape.phase_share) sum += share[m];
    for (auto& share : shape.phase_share) share[m] = sum > 0 ? share[m] / sum : 1.0 / w->phases();
  }
  return shape;
}

namespace {

SchemeProfile phase_profile(const std::vector<StepRecord>& records,
                            const std::vector<double>& speeds, const std::vector<double>* share) {
  const std::size_t procs = records.back().busy.size();
  const auto speed = [&](std::size_t p) { return speeds.empty() ? 1.0 : speeds[p]; };
  SchemeProfile q;
  q.work.assign(procs, 0.0);
  q.rate.assign(procs, 0.0);
  q.modules = static_cast<int>(records.back().module_owner.size());
  std::vector<double> module_work(q.modules, 0.0);
  for (const StepRecord& r : records) {
    for (std::size_t p = 0; p < procs; ++p) q.rate[p] += 1.0 + r.external_load[p];
    for (int m = 0; m < q.modules; ++m) {
      const auto p = static_cast<std::size_t>(r.module_owner[m]);
      module_work[m] += r.module_cost[m] * speed(p) / (1.0 + r.external_load[p]);
    }
  }
  const double n = static_cast<double>(records.size());
  for (std::size_t p = 0; p < procs; ++p) q.rate[p] = speed(p) / (q.rate[p] / n);
  for (int m = 0; m < q.modules; ++m) {
    module_work[m] *= (share ? (*share)[m] : 1.0) / n;
    q.work[records.back().module_owner[m]] += module_work[m];
    q.largest_module = std::max(q.largest_module, module_work[m]);
  }
  return q;
}

}  // namespace

std::vector<SchemeProfile> profile_from_records(const std::vector<StepRecord>& records,
                                                const std::vector<double>& speeds,
                                                const ProfileShape& shape) {
  if (records.empty() || records.back().module_owner.empty())
    throw std::runtime_error("auto: the profile recorded no module costs");
  const std::size_t modules = records.back().module_owner.size();
  std::vector<SchemeProfile> out;
  if (shape.phase_share.empty()) out.push_back(phase_profile(records, speeds, nullptr));
  for (const auto& share : shape.phase_share) {
    if (share.size() != modules) throw std::runtime_error("auto: phase shares of another size");
    out.push_back(phase_profile(records, speeds, &share));
  }
  for (SchemeProfile& q : out) q.bytes_per_module = shape.bytes_per_module;
  return out;
}

std::vector<AutoPrediction> predict_candidates(const Params& p,
                                               const std::vector<SchemeProfile>& phases,
                                               int steps) {
  SchemeSettings s;
  s.group_size = static_cast<int>(p.integer("group_size"));
  s.profit = p.real("profit");
  s.move_threshold = p.real("move_threshold");
  s.network = {p.real("latency"), p.real("bandwidth")};
  std::vector<AutoPrediction> out;
  for (const std::string& name : auto_candidates(p)) {
    const auto scheme = profiled_scheme(name);
    double total = 0;
    for (const SchemeProfile& profile : phases)
      total += scheme ? predict_scheme_total(*scheme, profile, steps, s)
                      : predict_static_total(profile, steps);
    out.push_back({name, total});
  }
  return out;
}

namespace {

// The profile's records, and its CPU split as `run --costs` splits a run's: building and running
// it is the auto strategy's own work (balancers), its serial reference and verification the
// harness's.
struct Profile {
  std::vector<StepRecord> records;
  RunCosts costs;
};

// The profile (auto_profile_spec): verified like any run against the reference `references`
// shares, archived nowhere (its time is archived as auto_profile_seconds).
Profile run_profile(const RunSpec& spec, ReferenceCache* references) {
  const RunSpec p = auto_profile_spec(spec);
  const WorkloadInfo* info = find_workload_kind(p.workload);
  if (!info) throw std::invalid_argument("unknown workload " + p.workload);
  Profile out;
  CpuLap lap;
  const std::unique_ptr<Execution> execution = choose_executor(p, *info).make(p, *info);
  RecordingSink sink;
  const ExecutionResult x = execution->run(sink);
  lap(out.costs.run);
  out.costs.balancing = out.costs.run;  // of the run: none of it is the harness's
  const int steps = execution->reference_steps(x);
  const auto compute = [&] { return execution->reference(steps); };
  const std::shared_ptr<const SerialReference> reference =
      references ? references->take(p, steps, compute) : compute();
  lap(out.costs.reference);
  const Verification v = execution->verify(x, *reference);
  lap(out.costs.verify);
  if (!v.passed) throw std::runtime_error("auto: the profile did not verify: " + v.detail);
  out.records = std::move(sink.records);
  return out;
}

}  // namespace

RunSpec auto_profile_spec(const RunSpec& spec) {
  RunSpec p = spec;
  p.balancer.dynamic_name.clear();
  p.balancer.dynamic_params = Params();
  p.steps = static_cast<int>(spec.balancer.dynamic_params.integer("profile_steps"));
  p.module_detail = true;
  return p;
}

RunOutcome execute_auto_run(const RunSpec& spec, int repetition, ResultWriter* archive,
                            const Provenance& provenance, ReferenceCache* references) {
  std::vector<WorkloadAttribute> figures;
  RunSpec chosen = spec;
  RunCosts profile_costs;
  try {
    const Params& p = spec.balancer.dynamic_params;
    Profile profile = run_profile(spec, references);
    profile_costs = profile.costs;
    const std::vector<StepRecord>& records = profile.records;
    const std::vector<SchemeProfile> phases =
        profile_from_records(records, spec.speeds, profile_shape(spec));
    const std::vector<AutoPrediction> predictions = predict_candidates(p, phases, spec.steps);
    const auto best =
        std::min_element(predictions.begin(), predictions.end(),
                         [](const auto& a, const auto& b) { return a.total < b.total; });
    chosen.balancer.dynamic_name = best->name == "none" ? "" : best->name;
    chosen.balancer.dynamic_params =
        best->name == "none" ? Params() : candidate_params(best->name, p);
    double profile_seconds = 0;
    for (const StepRecord& r : records) profile_seconds += r.makespan;
    figures.push_back({"auto_profile_seconds", profile_seconds});
    for (const AutoPrediction& a : predictions)
      figures.push_back({"auto_predicted_" + a.name, a.total});
  } catch (const std::exception& e) {
    RunOutcome out;
    out.spec = &spec;
    out.repetition = repetition;
    out.error = e.what();
    return out;
  }
  RunOutcome out = execute_run(chosen, repetition, archive, provenance, references, figures);
  out.spec = &spec;
  out.costs += profile_costs;
  return out;
}

void register_auto_choice() {
  static const bool registered = [] {
    register_entry_runner({is_auto_choice,
                           [](const RunSpec& spec) { return std::vector{auto_profile_spec(spec)}; },
                           execute_auto_run});
    return true;
  }();
  (void)registered;
}

}  // namespace lbb
