#pragma once
// Validation before extrapolation (`lbbench simulate --replay SET`): every real run recorded
// with module detail is simulated again on its own recorded costs, under its own balancers, and
// the simulation's makespan is set beside what the run measured. A run across MPI ranks is replayed
// knowing its ranks: its exchange and decision broadcasts at the ranks' collective rates, its moves
// across ranks at the network's.
// A run replayed with its own balancer must make the very decisions it made: the same owners every
// step and the same migrations (`reproduced`), since its balancer sees the view the real one saw.
#include <optional>
#include <string>
#include <vector>

#include "harness/base/sim_settings.h"
#include "harness/base/step_record.h"
#include "harness/results/result_reader.h"

namespace lbb {

struct ReplayedRun {
  std::string run, workload, label, sweep;
  int processors = 0;
  int processors_on_a_host = 0;   // the most one host ran: a run across ranks may span hosts
  bool bulk_synchronous = true;   // balanced between steps, or not at all (no in-step scheme)
  std::string skipped;            // non-empty: why it was not replayed
  double predicted = 0;           // s, sum of the simulated step makespans
  double measured_wall = 0;       // s, the run's wall_total
  double measured_makespan = 0;   // s, the run's makespan_total (modelled from CPU time)
  bool reproduced = false;        // every step's owners and migrations equal the recorded ones
  std::string difference;         // the first one, when not reproduced
  std::vector<StepRecord> steps;  // the simulation's
  double error() const { return measured_wall > 0 ? predicted / measured_wall - 1 : 0; }
  // Against the run's own modelled makespan (CPU time): what the simulation models, whatever
  // the host's load did to the wall clock.
  double cpu_error() const { return measured_makespan > 0 ? predicted / measured_makespan - 1 : 0; }
};

// One recorded run; `info` as ResultReader::runs() lists it. A run it cannot replay (not a bsp
// run, no module detail, ...) comes back skipped, with why.
ReplayedRun replay_run(const ResultReader& set, const RunRecord& info, const SimSettings& settings);
// Where a run across MPI ranks ran, from its `ranks` attribute (rank:host:threads, one per rank,
// comma-separated): processors per rank, and the most processors on one host. Throws
// std::invalid_argument unless every rank has the same threads and they make up `processors`.
struct RankPlacement {
  int threads = 0, busiest_host = 0;
};
RankPlacement rank_placement(const std::string& ranks, int processors);
// A recorded run's exchanges per step (harness/sim/network_fit.h), from its own config; 0: unknown.
int recorded_exchanges_per_step(const RunRecord& info);
// Every complete run of the set, through replay_run.
std::vector<ReplayedRun> replay_complete_runs(const ResultReader& set, const SimSettings& settings);

// Per group of runs differing only in strategy (workload, sweep, P): Kendall's tau-b between
// the strategies' median predicted and median measured makespans, wall time and the runs' own
// modelled makespan (CPU time: what the simulator models, whatever the host's load did).
struct RankAgreement {
  std::string group;
  int strategies = 0;
  std::optional<double> tau, tau_makespan;
};
std::vector<RankAgreement> ranking_agreement(const std::vector<ReplayedRun>& runs);

}  // namespace lbb
