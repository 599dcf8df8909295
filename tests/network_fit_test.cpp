// simulate --calibrate's network fit: latency and bandwidth recovered from the moves across
// ranks and the exchanges that runs of executor mpi record per step (harness/sim/network_fit.h).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "harness/results/result_reader.h"
#include "harness/results/result_schema.h"
#include "harness/results/result_writer.h"
#include "harness/sim/network_fit.h"

namespace lbb {
namespace {

// A set of one complete run of `executor` on 2 ranks whose steps moved m messages of b bytes in t
// seconds, and exchanged b bytes in t seconds (exchange_bytes, exchange_seconds) when `exchanged`.
std::filesystem::path write_set(const std::string& executor,
                                const std::vector<std::array<double, 3>>& steps,
                                const std::vector<std::array<double, 2>>& exchanged = {}) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("lbb_netfit_" + std::to_string(getpid()) + "_" + executor);
  std::filesystem::remove_all(dir);
  ResultWriter set(dir.string(), InvocationRecord{});
  auto run = set.begin_run(RunLayout{
      {"remote_migrations", "remote_bytes", "remote_seconds", "exchange_bytes", "exchange_seconds"},
      2,
      1,
      RecordLevel::kProcs,
      1});
  RunRecord record;
  record.status = "complete";
  record.executor = executor;
  record.invocation = "test";
  record.figures = {{"mpi_ranks", 2}};
  for (std::size_t s = 0; s < steps.size(); ++s) {
    StepRecord r;
    r.step = static_cast<int>(s);
    for (auto* v :
         {&r.busy, &r.busy_wall, &r.idle, &r.proc_balance, &r.proc_migration, &r.external_load})
      v->assign(2, 0.0);
    r.triggered.assign(2, 0);
    const std::array<double, 2> x = s < exchanged.size() ? exchanged[s] : std::array<double, 2>{};
    r.metrics = {steps[s][0], steps[s][1], steps[s][2], x[0], x[1]};
    run->on_step(r);
  }
  run->end(record);
  set.finish();
  return dir;
}

TEST(NetworkFit, RecoversLatencyAndBandwidth) {
  const double L = 2e-4, B = 5e8;
  std::vector<std::array<double, 3>> steps;
  for (double m : {1.0, 3.0, 8.0, 0.0, 20.0})
    for (double bytes_each : {1e3, 4e4, 2e5})
      steps.push_back({m, m * bytes_each, L * m + m * bytes_each / B});
  const auto dir = write_set("mpi", steps);
  const NetworkFit fit = fit_network(ResultReader(dir.string()));
  EXPECT_EQ(fit.moves.steps, 12);  // the three steps without a move are left out
  EXPECT_NEAR(fit.moves.latency, L, 1e-9);
  EXPECT_NEAR(fit.moves.bandwidth, B, 1e-3 * B);
  EXPECT_LT(fit.moves.median_error, 1e-6);
  EXPECT_EQ(fit.exchange.steps, 0);  // not told how many exchanges a step makes
  std::filesystem::remove_all(dir);
}

// A loaded host delays a step (a rank waiting for a core): the fit, of relative errors, keeps to
// the undelayed steps, where least squares of seconds would follow the delayed one.
TEST(NetworkFit, AStepTheHostDelayedDoesNotDragTheFit) {
  const double L = 2e-6, B = 5e9;
  std::vector<std::array<double, 3>> steps;
  for (double m : {1.0, 3.0, 8.0})
    for (double bytes_each : {1e3, 4e4, 2e5})
      steps.push_back({m, m * bytes_each, L * m + m * bytes_each / B});
  steps.push_back({8.0, 8 * 2e5, 0.015});  // 50 times the others' rate: a 15 ms time slice
  const auto dir = write_set("mpi", steps);
  const NetworkFit fit = fit_network(ResultReader(dir.string()));
  EXPECT_NEAR(fit.moves.latency, L, 0.2 * L);
  EXPECT_NEAR(fit.moves.bandwidth, B, 0.2 * B);
  std::filesystem::remove_all(dir);
}

// Told that the run's steps make 3 exchanges (one message each from the other rank), the fit
// takes each step's exchange apart from its moves: 3 L + b / B each.
TEST(NetworkFit, EachStepsExchangeIsFittedApartWhenItsMessagesAreKnown) {
  const double L = 4e-5, B = 2e9;
  std::vector<std::array<double, 3>> moves;
  std::vector<std::array<double, 2>> exchanged;
  for (double bytes : {1e3, 1e5, 3e6, 5e4}) {
    moves.push_back({2, 2 * bytes, 2 * 1e-6 + 2 * bytes / 5e10});
    exchanged.push_back({bytes, 3 * L + bytes / B});
  }
  const auto dir = write_set("mpi", moves, exchanged);
  const NetworkFit fit =
      fit_network(ResultReader(dir.string()), [](const RunRecord&) { return 3; });
  EXPECT_EQ(fit.moves.steps, 4);
  EXPECT_NEAR(fit.moves.latency, 1e-6, 1e-9);
  EXPECT_NEAR(fit.moves.bandwidth, 5e10, 1e-3 * 5e10);
  EXPECT_EQ(fit.exchange.steps, 4);
  EXPECT_NEAR(fit.exchange.latency, L, 1e-3 * L);
  EXPECT_NEAR(fit.exchange.bandwidth, B, 1e-3 * B);
  std::filesystem::remove_all(dir);
}

TEST(NetworkFit, RunsInOneProcessGiveNothingToFit) {
  const auto dir = write_set("bsp", {{{2.0, 1e4, 1e-3}}});
  EXPECT_THROW(fit_network(ResultReader(dir.string())), std::invalid_argument);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lbb
