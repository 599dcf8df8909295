#include "harness/analysis/replay.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>

#include "harness/config/config_loader.h"
#include "harness/exec/execution.h"
#include "harness/formats/trace_workload.h"
#include "harness/results/recorded_level.h"
#include "harness/sim/cost_stream.h"
#include "harness/sim/network_fit.h"
#include "harness/sim/simulate_executor.h"
#include "harness/stats/kendall.h"
#include "harness/stats/sample_summary.h"

namespace lbb {

namespace {

class CollectingSink final : public StepSink {
 public:
  void on_step(const StepRecord& r) override { records.push_back(r); }
  std::vector<StepRecord> records;
};

double or_zero(double x) {
  return std::isnan(x) ? 0.0 : x;
}

// The first step whose owners (of any phase) or migrations differ from the recorded ones; empty:
// none.
std::string first_difference(const ResultReader& set, const std::string& run,
                             const std::vector<StepRecord>& sim, const RecordedStream& recorded) {
  const std::vector<double> migrations = set.read_series(run, "step/migrations");
  if (migrations.size() != sim.size()) return "step counts differ";
  const int phases = recorded.phases();
  for (std::size_t s = 0; s < sim.size(); ++s) {
    for (int ph = 0; ph < phases; ++ph) {
      const std::span<const int> owner = recorded.recorded_owner(static_cast<int>(s), ph);
      const std::span<const int> simulated =
          phases == 1 ? std::span<const int>(sim[s].module_owner)
                      : std::span<const int>(sim[s].phase_module_owner)
                            .subspan(static_cast<std::size_t>(ph) * owner.size(), owner.size());
      if (!std::equal(owner.begin(), owner.end(), simulated.begin(), simulated.end()))
        return "owners differ at step " + std::to_string(s) +
               (phases == 1 ? "" : " phase " + std::to_string(ph));
    }
    if (static_cast<double>(sim[s].migrations) != migrations[s])
      return "migrations differ at step " + std::to_string(s) + " (" +
             std::to_string(sim[s].migrations) + " simulated, " +
             std::to_string(static_cast<long long>(migrations[s])) + " recorded)";
  }
  return "";
}

// The run's own config (of one run) and its workload, which must have persistent modules.
std::pair<RunSpec, const WorkloadInfo*> recorded_spec(const RunRecord& info) {
  Config config = load_config_text(info.config_yaml, info.run);
  if (config.runs.size() != 1) throw std::invalid_argument("its config is not one run");
  const WorkloadInfo* workload = find_workload_kind(config.runs.front().workload);
  if (!workload) throw std::invalid_argument("unknown workload " + config.runs.front().workload);
  if (!workload->make)
    throw std::invalid_argument(config.runs.front().workload + " has no persistent modules");
  return {config.runs.front(), workload};
}

}  // namespace

int recorded_exchanges_per_step(const RunRecord& info) {
  try {
    const auto [spec, workload] = recorded_spec(info);
    return exchanges_per_step(*workload->make(spec.workload_params));
  } catch (const std::exception&) {
    return 0;
  }
}

ReplayedRun replay_run(const ResultReader& set, const RunRecord& info,
                       const SimSettings& settings) {
  ReplayedRun out;
  out.run = info.run;
  out.workload = info.workload;
  out.label = info.balancer;
  out.sweep = info.sweep;
  out.processors = out.processors_on_a_host =
      static_cast<int>(std::max<std::int64_t>(info.processors, 0));
  out.measured_wall = or_zero(info.wall_total);
  out.measured_makespan = or_zero(info.makespan_total);
  try {
    // A run across MPI ranks (mpi) is bulk-synchronous too.
    const std::string& executor = info.executor;
    if (executor != "bsp" && executor != "mpi")
      throw std::invalid_argument("executor " + executor +
                                  ": replay reproduces bulk-synchronous (bsp, mpi) runs");
    // Its module costs are what the simulator replays.
    if (const std::string why = level_problem(info, TableId::kModules); !why.empty())
      throw std::invalid_argument(why);
    auto [spec, workload] = recorded_spec(info);
    const bool resume = spec.warmup > 0;
    const std::vector<double> speed =
        spec.speeds.empty() ? std::vector<double>(spec.processors, 1.0) : spec.speeds;
    const int phases = workload->make(spec.workload_params)->phases();
    auto recorded = std::make_shared<RecordedStream>(set, info.run, speed, phases, resume);
    SimSettings run_settings = settings;
    run_settings.replay_first_step = spec.warmup;
    if (executor == "mpi") {
      const RankPlacement placed = rank_placement(info.ranks, spec.processors);
      run_settings.rank_threads = placed.threads;
      out.processors_on_a_host = placed.busiest_host;
      recorded->read_rank_traffic(set, info.run);
    }
    if (const BalancerInfo* b = find_balancer(spec.balancer.dynamic_name))
      out.bulk_synchronous = b->role != BalancerRole::kInStep && b->role != BalancerRole::kChoice;
    spec.executor = "simulate";
    spec.record = RecordLevel::kModules;
    spec.external_load.max.clear();  // the recorded costs hold the load the run had
    spec.warmup = 0;
    spec.steps = recorded->steps();
    const auto execution = module_execution([&](const RunSpec&) {
      return std::make_unique<SimulateExecutor>(run_settings, recorded);
    })(spec, *workload);
    CollectingSink sink;
    execution->run(sink);
    for (const StepRecord& r : sink.records) out.predicted += r.makespan;
    out.difference = first_difference(set, info.run, sink.records, *recorded);
    out.reproduced = out.difference.empty();
    out.steps = std::move(sink.records);
  } catch (const std::exception& e) {
    out.skipped = e.what();
  }
  return out;
}

RankPlacement rank_placement(const std::string& ranks, int processors) {
  int count = 0, threads = 0;
  std::map<std::string, int> on_host;
  std::istringstream in(ranks);
  for (std::string rank; std::getline(in, rank, ',');) {
    const std::size_t host = rank.find(':'), colon = rank.rfind(':');
    int t = 0;
    const char* end = rank.data() + rank.size();
    if (host == colon || std::from_chars(rank.data() + colon + 1, end, t).ptr != end || t < 1 ||
        (count > 0 && t != threads))
      throw std::invalid_argument("ranks '" + ranks + "': not rank:host:threads, the same " +
                                  "threads on every rank");
    threads = t;
    ++count;
    on_host[rank.substr(host + 1, colon - host - 1)] += t;
  }
  if (count == 0 || count * threads != processors)
    throw std::invalid_argument("ranks '" + ranks + "' do not make up its " +
                                std::to_string(processors) + " processors");
  RankPlacement out{threads, 0};
  for (const auto& [name, held] : on_host) out.busiest_host = std::max(out.busiest_host, held);
  return out;
}

std::vector<ReplayedRun> replay_complete_runs(const ResultReader& set,
                                              const SimSettings& settings) {
  std::vector<ReplayedRun> out;
  for (const RunRecord& info : set.runs()) {
    if (info.status == "complete") out.push_back(replay_run(set, info, settings));
  }
  return out;
}

std::vector<RankAgreement> ranking_agreement(const std::vector<ReplayedRun>& runs) {
  // group -> strategy -> predicted, measured wall and measured makespan of its repetitions
  std::map<std::string, std::map<std::string, std::array<std::vector<double>, 3>>> groups;
  for (const ReplayedRun& r : runs) {
    if (!r.skipped.empty()) continue;
    auto& g = groups[r.workload + " P=" + std::to_string(r.processors) +
                     (r.sweep.empty() ? "" : " " + r.sweep)][r.label];
    g[0].push_back(r.predicted);
    g[1].push_back(r.measured_wall);
    g[2].push_back(r.measured_makespan);
  }
  std::vector<RankAgreement> out;
  for (const auto& [name, strategies] : groups) {
    std::array<std::vector<double>, 3> medians;
    for (const auto& [label, values] : strategies)
      for (std::size_t k = 0; k < values.size(); ++k)
        medians[k].push_back(stats::median(values[k]));
    out.push_back({name, static_cast<int>(strategies.size()), kendall_tau_b(medians[0], medians[1]),
                   kendall_tau_b(medians[0], medians[2])});
  }
  return out;
}

}  // namespace lbb
