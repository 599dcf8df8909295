// Issue 16 goal 1 where it is missed: what the harness adds to a simulated run shaped like
// configs/papers/iqbal1986.yaml's (64 and 96 modules of truncated-normal weights on a chain of 16
// modelled processors, 200 asynchronous steps; a static partition or the paper's predictive
// balancer), each run handed to execute_run with one archive, as `lbbench run` does. CPU seconds
// from the runs' own RunCosts, summed over a repetition's iterations (so the batched commits,
// and the archive's last one at its close, count in): model_ms and overhead_ms a run (of it
// archive_ms, the archive's, and harness_ms, building the step records from the model's state),
// and overhead_share = overhead / (model + overhead), the share `run --costs` reports less the
// invocation's fixed rest (config, table). Goal: 0.10.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "harness/base/clock.h"
#include "harness/config/config_loader.h"
#include "harness/results/result_reader.h"
#include "harness/run/provenance.h"
#include "harness/run/reference_cache.h"
#include "harness/run/runner.h"

namespace lbb {
namespace {

std::string iqbal1986_like(bool predictive) {
  return std::string(
             "name: iqbal1986_like\n"
             "workload: { kind: synthetic, model: truncated_normal, mean: 1, modules: [64, 96],\n"
             "  sd: [0.5, 1.0, 2.0], dependencies: chain, seed: [1, 2, 3, 4, 5] }\n"
             "platform: { processors: 16, topology: chain }\n"
             "execution: { steps: 200, warmup: 0, executor: simulate, sim_async: true,\n"
             "  sim_decision: modelled }\n"
             "balancers: [ { ") +
         (predictive ? "static: block, dynamic: predictive, threshold: 1, safety_factor: 1"
                     : "static: optimal_chain") +
         " } ]\n";
}

void BM_SimulatedRunArchiveShare(benchmark::State& state) {
  const Config config =
      load_config_text(iqbal1986_like(state.range(0) != 0), "iqbal1986_like.yaml");
  const Provenance provenance = gather_provenance();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("lbbench_archive_share_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  RunCosts costs;
  double close_start = 0;
  {
    ResultWriter archive((dir / "share").string(), {});
    ReferenceCache references;
    std::size_t k = 0;
    for (auto _ : state) {
      const RunOutcome out =
          execute_run(config.runs[k++ % config.runs.size()], 0, &archive, provenance, &references);
      if (!out.error.empty()) {
        state.SkipWithError(out.error.c_str());
        break;
      }
      costs += out.costs;
    }
    close_start = process_cpu_now();
  }
  costs.results += process_cpu_now() - close_start;  // the last commit, as `run --costs` counts it
  std::filesystem::remove_all(dir);
  const double runs = static_cast<double>(state.iterations());
  const double model = costs.simulated, overhead = costs.overhead();
  state.counters["model_ms"] = 1e3 * model / runs;
  state.counters["overhead_ms"] = 1e3 * overhead / runs;
  state.counters["archive_ms"] = 1e3 * (costs.results + costs.record) / runs;  // of overhead
  state.counters["harness_ms"] = 1e3 * costs.harness() / runs;                 // of overhead
  state.counters["overhead_share"] = overhead / (model + overhead);
}
BENCHMARK(BM_SimulatedRunArchiveShare)
    ->ArgName("predictive")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

}  // namespace
}  // namespace lbb
