// The hooks through which an asynchronous run spans processes (AsyncPeers, harness/exec/
// async_run.h; the MPI agent behind them: harness/mpi/rank_agent.h): with every processor here,
// the peers hear of every finished module step exactly once, in each module's step order, with
// its modelled end, and of every take; and they are never asked for a take.
#include <gtest/gtest.h>

#include <omp.h>

#include <mutex>
#include <thread>

#include "harness/exec/async_run.h"
#include "harness/exec/group_barrier.h"

namespace lbb {
namespace {

// Uneven module costs, changing every step; copies cost little.
class CostWork final : public AsyncWork {
 public:
  explicit CostWork(int P) : load_(P) {}
  double run_module(int m, int s, int, double) override {
    return 0.5 + ((m * 7 + s * 13) % 11) / 5.0;
  }
  MigrationCharge migrate(int) override { return {8, 0.05}; }
  double decision_seconds(double) const override { return 0.01; }
  void close_step(int, double, ClosedStep&) override {}
  const LoadTally& load(int p) const override { return load_[p]; }

 private:
  std::vector<LoadTally> load_;
};

class Listening final : public AsyncPeers {
 public:
  Listening(int modules, int steps) : steps_(steps), heard_(modules, 0), end_(modules * steps) {}
  bool here(int) const override { return true; }
  void finished(int m, int s, int, double end, double) override {
    if (heard_[m] != s) out_of_order = true;
    ++heard_[m];
    end_[m * steps_ + s] = end;
  }
  void took(const ModuleTake&, int, double) override { ++takes; }
  std::optional<MigrationCharge> take_elsewhere(const ModuleTake&, double,
                                                std::unique_lock<std::mutex>&) override {
    asked_elsewhere = true;
    return std::nullopt;
  }
  int steps_heard(int m) const { return heard_[m]; }
  double end(int m, int s) const { return end_[m * steps_ + s]; }
  bool out_of_order = false, asked_elsewhere = false;
  int takes = 0;

 private:
  int steps_;
  std::vector<int> heard_;
  std::vector<double> end_;
};

TEST(AsyncPeers, HearOfEveryStepOnceInOrderAndOfEveryTake) {
  const int M = 24, P = 4, steps = 20;
  const ModuleGraph graph = ModuleGraph::chain(M);
  const Topology topology(TopologyKind::kChain, P);
  std::vector<int> owner(M);  // half the modules on processor 0: the others run short and take
  for (int m = 0; m < M; ++m) owner[m] = m < M / 2 ? 0 : 1 + (m - M / 2) * (P - 1) / (M / 2);
  Predictive predictive(2.0, 0.5);
  predictive.start(graph, owner, std::vector<double>(M, 1.0), topology, steps);
  CostWork work(P);
  AsyncRun run(work, graph, P, owner, steps, &predictive, AsyncOrder::kArrival);
  Listening peers(M, steps);
  run.span_processes(peers);
  std::vector<std::thread> threads;
  for (int p = 0; p < P; ++p) threads.emplace_back([&run, p] { run.processor(p); });
  for (std::thread& t : threads) t.join();
  run.rethrow_if_failed();
  EXPECT_FALSE(peers.out_of_order);
  EXPECT_FALSE(peers.asked_elsewhere);
  for (int m = 0; m < M; ++m) {
    EXPECT_EQ(peers.steps_heard(m), steps) << "module " << m;
    for (int s = 1; s < steps; ++s) EXPECT_GT(peers.end(m, s), peers.end(m, s - 1));
  }
  EXPECT_GT(peers.takes, 0);
  EXPECT_EQ(static_cast<std::size_t>(peers.takes), run.takes().size());
}

// A processor with nothing ready spins before its sleep as the team's barrier does: only where
// every processor has a core and the policy is not passive (on a quiet host two yields found
// nothing to run and every wait paid a kernel wake-up: async METG 73-76 us, 6-15 us with the spin).
TEST(AsyncRun, WaitsSpinAsTheTeamsBarrierDoes) {
  const ModuleGraph graph = ModuleGraph::chain(4);
  const int cores = omp_get_num_procs();
  for (const int P : {1, cores + 1}) {
    CostWork work(P);
    AsyncRun run(work, graph, P, std::vector<int>(4, 0), 1, nullptr, AsyncOrder::kArrival);
    EXPECT_EQ(run.wait_spin(), GroupBarrier::spin_for(wait_policy(), P > cores)) << "P " << P;
    if (P > cores) EXPECT_EQ(run.wait_spin(), 0);
  }
}

}  // namespace
}  // namespace lbb
