#pragma once
// Calibration of the simulator's network charges from runs across MPI ranks (executor mpi,
// harness/mpi/): each recorded step's moves across ranks took t = L m + b / B seconds for m
// messages of b bytes (execution.sim_latency, sim_bandwidth; a replay's --network-latency,
// --network-bandwidth), and its exchange after each phase, a collective of every rank, likewise
// at rates of its own (a replay's --exchange-latency, --exchange-bandwidth). L and 1 / B of the
// least sum of |fitted / measured - 1| over the steps, each clamped at 0 (a negative fit says the
// noise hides that term). A step a loaded host delayed by a time slice counts at most 1 however
// long it took, so the fit keeps to the undelayed steps: the network's rates, not the host's
// scheduling (on a host that delayed most steps, the replay falls short by those delays).
#include <functional>
#include <vector>

#include "harness/base/recorded_runs.h"
#include "workloads/workload.h"

namespace lbb {

struct LinkFit {
  double latency = 0;       // s a message
  double bandwidth = 0;     // B/s; 0: the bytes' term fitted as free
  int steps = 0;            // steps fitted; 0: none, nothing fitted
  double median_error = 0;  // over the steps, |fitted / measured - 1|
};

struct NetworkFit {
  LinkFit moves, exchange;
  int runs = 0;
};

// The exchanges each step of a run across ranks makes, each a message from every other rank: one
// per phase (Workload::phase_outputs), one more when its end of step reads every state.
int exchanges_per_step(const Workload& workload);

// Given `exchanges` (a run's exchanges_per_step; 0: unknown), each step's exchange is fitted too:
// (ranks - 1) x exchanges messages of its exchange_bytes in its exchange_seconds. Throws
// std::invalid_argument when no mpi run moved a module across ranks or exchanged anything.
NetworkFit fit_network(const RecordedRuns& set,
                       const std::function<int(const RunRecord&)>& exchanges = {});

}  // namespace lbb
