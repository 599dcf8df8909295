// The loop self-scheduling techniques against chunk sequences computed by hand from their papers'
// formulas, then each one run by the simulator, whose chunks of equal modules must be the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "balancers/in_step/loop_schedules.h"
#include "config_test_support.h"
#include "executor_test_support.h"
#include "harness/base/schedule.h"
#include "harness/config/config_loader.h"
#include "harness/formats/trace_workload.h"
#include "harness/run/executor_registry.h"
#include "harness/sim/schedule_model.h"

namespace lbb {
namespace {

ChunkCalculator make(const std::string& name, std::vector<double> speed,
                     std::initializer_list<std::pair<const char*, ParamValue>> given = {}) {
  const ScheduleInfo* info = find_schedule(name);
  EXPECT_NE(info, nullptr) << name;
  Params params;
  for (const auto& [key, value] : given) params.set(key, value);
  return ChunkCalculator(info->technique, resolve_params(info->params, params), speed);
}

// The chunks of one loop of n iterations, the processors asking in turn 0, 1, ..., P-1, 0, ...
std::vector<int> chunks(ChunkCalculator c, int n, int P) {
  std::vector<int> out;
  c.start(n);
  for (int i = 0;; i = (i + 1) % P) {
    const int k = c.next(i);
    if (k == 0) break;
    out.push_back(k);
  }
  return out;
}

std::vector<int> batches(std::initializer_list<std::pair<int, int>> runs) {  // (size, times)
  std::vector<int> out;
  for (auto [size, times] : runs) out.insert(out.end(), times, size);
  return out;
}

TEST(LoopSchedules, SelfSchedulingHandsOutOneAtATime) {
  EXPECT_EQ(chunks(make("ss", {1, 1}), 5, 2), std::vector<int>(5, 1));
}

// Kruskal & Weiss 1985 with h = sigma, N = 1000, P = 4: (1414.2 / (4 sqrt(ln 4)))^(2/3) = 44.84.
TEST(LoopSchedules, FixedSizeChunkingFollowsKruskalAndWeiss) {
  EXPECT_EQ(fsc_chunk(1000, 4, 1e-6, 1e-6), 45);
  EXPECT_EQ(fsc_chunk(1000, 4, 1.0, 1e-6), 250);  // overhead dominates: one chunk a processor
  EXPECT_EQ(fsc_chunk(1000, 1, 1e-6, 1e-6), 1000);
  const std::vector<int> c =
      chunks(make("fsc", {1, 1, 1, 1}, {{"overhead", 1e-6}, {"sigma", 1e-6}}), 1000, 4);
  EXPECT_EQ(c, batches({{45, 22}, {10, 1}}));
}

// Ciorba, Iwainsky & Buder 2018, by hand: N = 1000, P = 4: T = 250, 250 / log2 250 = 31.38;
// N = 100, P = 2: T = 50, 50 / 5.644 = 8.86. The chunks number about FAC2's 32 and 12.
TEST(LoopSchedules, ModifiedFixedSizeChunkingNeedsNoProfile) {
  EXPECT_EQ(chunks(make("mfsc", {1, 1, 1, 1}), 1000, 4), batches({{31, 32}, {8, 1}}));
  EXPECT_EQ(chunks(make("mfsc", {1, 1}), 100, 2), batches({{9, 11}, {1, 1}}));
  EXPECT_EQ(mfsc_chunk(1, 4), 1);
  EXPECT_EQ(mfsc_chunk(4, 2), 2);  // T = 2: 2 / log2 2
}

// Polychronopoulos & Kuck 1987: ceil(R / P) of what remains, at least min_chunk.
TEST(LoopSchedules, GuidedTakesAPthOfTheRemainder) {
  EXPECT_EQ(chunks(make("gss", {1, 1, 1, 1}), 100, 4),
            (std::vector<int>{25, 19, 14, 11, 8, 6, 5, 3, 3, 2, 1, 1, 1, 1}));
  EXPECT_EQ(chunks(make("gss", {1, 1, 1, 1}, {{"min_chunk", std::int64_t{5}}}), 100, 4),
            (std::vector<int>{25, 19, 14, 11, 8, 6, 5, 5, 5, 2}));
}

// Tzen & Ni 1993, N = 1000, P = 4: first 125, last 1, C = ceil(2000 / 126) = 16 chunks,
// decrement floor(124 / 15) = 8; the thirteenth chunk takes the 28 left.
TEST(LoopSchedules, TrapezoidDecreasesLinearly) {
  EXPECT_EQ(chunks(make("tss", {1, 1, 1, 1}), 1000, 4),
            (std::vector<int>{125, 117, 109, 101, 93, 85, 77, 69, 61, 53, 45, 37, 28}));
  EXPECT_EQ(
      chunks(make("tss", {1, 1}, {{"first", std::int64_t{10}}, {"last", std::int64_t{2}}}), 30, 2),
      (std::vector<int>{10, 8, 6, 4, 2}));  // C = ceil(60 / 12) = 5, decrement 2
}

// Chronopoulos et al. 2001: each batch of P chunks is the mean of P trapezoid chunks. By hand,
// N = 100, P = 2: TSS's chunks are 25, 22, 19, ..., 4, 1 (decrement 3), their pair means 23.5,
// 17.5, 11.5 round up to 24, 18, 12, and the 4 left end the loop. N = 1000, P = 4: the closed
// form of a batch's mean, f - d (b P + (P - 1) / 2) with f 125 and d 8, rounded up.
TEST(LoopSchedules, TrapezoidFactoringAveragesTrapezoidBatches) {
  EXPECT_EQ(chunks(make("tfss", {1, 1}), 100, 2), (std::vector<int>{24, 24, 18, 18, 12, 4}));
  std::vector<int> expected;
  for (int b = 0, left = 1000; left > 0; ++b)
    for (int k = 0; k < 4 && left > 0; ++k) {
      const int mean = std::max(1, static_cast<int>(std::ceil(125 - 8 * (b * 4 + 1.5))));
      expected.push_back(std::min(left, mean));
      left -= expected.back();
    }
  EXPECT_EQ(chunks(make("tfss", {1, 1, 1, 1}), 1000, 4), expected);
  EXPECT_EQ(expected, batches({{113, 4}, {81, 4}, {49, 4}, {17, 1}, {11, 1}}));
}

// Philip & Das 1997, by hand. N = 1000, P = 4, B = 3 (P - 1): X = 5, K_0 = 50, delta =
// ceil(800 / 24) = 34; the third batch's 118 runs out after three. N = 100, P = 2, B = 2 (at
// least 2): X = 4, K_0 = 13, delta = 25. The B batches at the formula's real sizes add up to N.
TEST(LoopSchedules, FixedIncreaseGrowsByAConstant) {
  EXPECT_EQ(chunks(make("fiss", {1, 1, 1, 1}), 1000, 4),
            batches({{50, 4}, {84, 4}, {118, 3}, {110, 1}}));
  EXPECT_EQ(chunks(make("fiss", {1, 1}), 100, 2), (std::vector<int>{13, 13, 38, 36}));
  for (auto [n, P, B] : {std::tuple{1000.0, 4.0, 3.0}, {5000.0, 8.0, 5.0}, {100.0, 2.0, 2.0}}) {
    const double X = B + 2, k0 = n / (X * P), delta = 2 * n * (1 - B / X) / (P * B * (B - 1));
    double total = 0;
    for (int b = 0; b < B; ++b) total += P * (k0 + b * delta);
    EXPECT_NEAR(total, n, 1e-9 * n);
  }
  EXPECT_THROW(make("fiss", {1, 1}, {{"stages", std::int64_t{1}}}), std::invalid_argument);
}

// Philip & Das 1997, by hand: K_0 = N / (x P), then K_0 (1 + 1/2 + ... + 2^-b). N = 1000, P = 4,
// x = 4: 62.5, 93.75, 109.4 round up to 63, 94, 110. N = 100, P = 2, x = 2: 25, 37.5.
TEST(LoopSchedules, VariableIncreaseHalvesEachIncrease) {
  EXPECT_EQ(chunks(make("viss", {1, 1, 1, 1}), 1000, 4),
            batches({{63, 4}, {94, 4}, {110, 3}, {42, 1}}));
  EXPECT_EQ(chunks(make("viss", {1, 1}), 100, 2), (std::vector<int>{25, 25, 38, 12}));
  EXPECT_EQ(
      chunks(make("viss", {1, 1}, {{"x", std::int64_t{10}}}), 100, 2),
      (std::vector<int>{5, 5, 8, 8, 9, 9, 10, 10, 10, 10, 10, 6}));  // 5, 7.5, 8.75, 9.375, ...
}

// Ciorba, Iwainsky & Buder 2018: uniform chunk sizes in [low, high]. The defaults for N = 1000,
// P = 4 are [2, 125]; every size in a small range is drawn about equally often; a run's seed
// gives the same chunks again, another seed and the next loop others.
TEST(LoopSchedules, RandomChunksAreUniformInTheirRange) {
  const std::vector<int> c = chunks(make("rnd", {1, 1, 1, 1}), 1000, 4);
  EXPECT_EQ(std::accumulate(c.begin(), c.end(), 0), 1000);
  for (std::size_t i = 0; i + 1 < c.size(); ++i) {
    EXPECT_GE(c[i], 2);
    EXPECT_LE(c[i], 125);
  }
  EXPECT_EQ(chunks(make("rnd", {1, 1, 1, 1}), 1000, 4), c);
  EXPECT_NE(chunks(make("rnd", {1, 1, 1, 1}, {{"seed", std::int64_t{2}}}), 1000, 4), c);
  ChunkCalculator twice = make("rnd", {1, 1});
  const std::vector<int> first = chunks(twice, 1000, 2);
  twice.start(7);  // a loop of its own: the copy chunks() runs is the third
  EXPECT_NE(chunks(twice, 1000, 2), first);
  std::vector<int> seen(6);
  const int n = 60000;
  for (int k :
       chunks(make("rnd", {1, 1}, {{"low", std::int64_t{3}}, {"high", std::int64_t{8}}}), n, 2))
    if (k >= 3) ++seen[k - 3];  // the last chunk may be cut short
  const int draws = std::accumulate(seen.begin(), seen.end(), 0);
  EXPECT_GT(draws, n / 8 - 2);
  for (int count : seen) EXPECT_NEAR(count, draws / 6.0, 0.1 * draws / 6.0);
}

// Lucco 1992 with v = 1, N = 1000, P = 4, by hand: T = 250, 250.5 - sqrt(500.25) = 228.13;
// then T = 771 / 4, 193.25 - sqrt(385.75) = 173.61. The whole sequence against the formula
// evaluated here for (N, P, v) = (1000, 4, 1) and (5000, 8, 0.5); v 0 is guided self-scheduling.
TEST(LoopSchedules, TaperingLeavesAMarginForTheVariance) {
  const std::vector<int> c = chunks(make("tap", {1, 1, 1, 1}), 1000, 4);
  ASSERT_GE(c.size(), 2u);
  EXPECT_EQ(c[0], 229);
  EXPECT_EQ(c[1], 174);
  for (auto [n, P, v] : {std::tuple{1000, 4, 1.0}, {5000, 8, 0.5}}) {
    std::vector<int> expected;
    for (int r = n; r > 0; r -= expected.back()) {
      const double T = static_cast<double>(r) / P;
      const double k = T + v * v / 2 - v * std::sqrt(2 * T + v * v / 4);
      expected.push_back(std::min(r, std::max(1, static_cast<int>(std::ceil(k)))));
    }
    EXPECT_EQ(chunks(make("tap", std::vector<double>(P, 1.0), {{"cv", v}}), n, P), expected);
  }
  EXPECT_EQ(chunks(make("tap", {1, 1, 1, 1}, {{"cv", 0.0}}), 100, 4),
            chunks(make("gss", {1, 1, 1, 1}), 100, 4));
}

// Flynn Hummel, Schonberg & Flynn 1992's practical form: each batch gives each of the P
// processors ceil(R / 2P), half of what remains.
TEST(LoopSchedules, Fac2HalvesTheRemainderEachBatch) {
  EXPECT_EQ(chunks(make("fac2", {1, 1, 1, 1}), 1000, 4),
            batches({{125, 4}, {63, 4}, {31, 4}, {16, 4}, {8, 4}, {4, 4}, {2, 4}, {1, 4}}));
}

// Factoring with cv = 1, N = 1000, P = 4: b_0 = 4 / (2 sqrt(1000)), x_0 = 1.0935, chunks of
// ceil(228.6); then R = 84, x_1 = 2.4866, chunks of ceil(8.45).
TEST(LoopSchedules, FactoringSizesBatchesFromTheVariance) {
  EXPECT_NEAR(factoring_ratio(1000, 4, 1.0, true), 1.09353, 1e-5);
  EXPECT_NEAR(factoring_ratio(84, 4, 1.0, false), 2.48664, 1e-5);
  EXPECT_DOUBLE_EQ(factoring_ratio(84, 4, 0.0, false), 2.0);  // no variance: FAC2's halving
  const std::vector<int> c = chunks(make("fac", {1, 1, 1, 1}, {{"cv", 1.0}}), 1000, 4);
  ASSERT_GE(c.size(), 8u);
  EXPECT_EQ(std::vector<int>(c.begin(), c.begin() + 8), batches({{229, 4}, {9, 4}}));
  EXPECT_EQ(std::accumulate(c.begin(), c.end(), 0), 1000);
}

// Flynn Hummel et al. 1996: speeds 0.75 and 0.25 weigh FAC2's chunk by 1.5 and 0.5.
TEST(LoopSchedules, WeightedFactoringScalesBySpeed) {
  EXPECT_EQ(chunks(make("wf", {0.75, 0.25}), 160, 2),
            (std::vector<int>{60, 20, 30, 10, 15, 5, 8, 3, 5, 2, 2}));
}

// Carino & Banicescu 2008: pi_i = sum_j j t_ij / sum_j j n_ij, weights P (1/pi_i) / sum 1/pi_k;
// a processor not measured yet counts at the others' mean pi. pi = (1, 2): 4/3 and 2/3; pi =
// (1, unmeasured, 2): the mean 1.5 stands in, sum 1/pi = 13/6, weights 18/13, 12/13, 9/13.
TEST(LoopSchedules, AdaptiveWeightsFollowTheMeasuredRates) {
  EXPECT_NEAR(awf_weight(1, 3, 1.5, 2, 2), 4.0 / 3, 1e-12);
  EXPECT_NEAR(awf_weight(2, 3, 1.5, 2, 2), 2.0 / 3, 1e-12);
  EXPECT_NEAR(awf_weight(1, 3, 1.5, 2, 3), 18.0 / 13, 1e-12);
  EXPECT_NEAR(awf_weight(0, 3, 1.5, 2, 3), 12.0 / 13, 1e-12);
  EXPECT_NEAR(awf_weight(2, 3, 1.5, 2, 3), 9.0 / 13, 1e-12);
  EXPECT_DOUBLE_EQ(awf_weight(0, 0, 0, 0, 4), 1.0);  // nothing measured: equal weights
}

// Two processors, N = 1000: the first batch is FAC2's 250 each; processor 1 took 2 s an
// iteration, processor 0 1 s, so the second batch's 125 becomes 167 and 84. Processor 0 then
// slows to 3 s: AWF-C adapts at once (pi_0 = 1252 / 584, processor 1's chunk 125 x 1.0347),
// AWF-B only at the next batch.
TEST(LoopSchedules, AwfBAdaptsEachBatchAndAwfCEachChunk) {
  for (const char* name : {"awf_b", "awf_c"}) {
    SCOPED_TRACE(name);
    ChunkCalculator c = make(name, {1, 1});
    c.start(1000);
    EXPECT_EQ(c.next(0), 250);
    EXPECT_EQ(c.next(1), 250);
    c.finished(0, {250, 250, 0, 250});
    c.finished(1, {250, 500, 0, 500});
    EXPECT_EQ(c.next(0), 167);
    c.finished(0, {167, 501, 0, 501});
    EXPECT_EQ(c.next(1), std::string(name) == "awf_c" ? 130 : 84);
  }
}

// AWF-D and AWF-E weigh the time from asking to finishing, scheduling overhead included.
TEST(LoopSchedules, AwfDWeighsTheOverheadToo) {
  for (const char* name : {"awf_b", "awf_d"}) {
    SCOPED_TRACE(name);
    ChunkCalculator c = make(name, {1, 1});
    c.start(1000);
    c.next(0);
    c.next(1);
    c.finished(0, {250, 250, 0, 750});  // 1 s an iteration, 3 s with the overhead
    c.finished(1, {250, 500, 0, 500});
    // AWF-B: pi = (1, 2), weight 4/3 of 125; AWF-D: pi = (3, 2), weight 0.8 of 125.
    EXPECT_EQ(c.next(0), std::string(name) == "awf_d" ? 100 : 167);
  }
}

// Carino & Banicescu 2008: at equal speeds every pi_i is equal and every weight 1, so each AWF
// variant hands out FAC2's chunks. Iteration times that are not binary fractions (1 us, and
// log-uniform draws from 0.1 us to 10 ms) make the measured pi_i equal only up to rounding; the
// chunks must not grow by one for a weight a rounding error above 1. N 1e2-1e6, P 1-64.
TEST(LoopSchedules, EveryAwfVariantIsFac2AtEqualSpeeds) {
  std::mt19937_64 draw(2026);
  std::uniform_real_distribution<double> log_n(2, 6), log_t(-7, -2);
  std::uniform_int_distribution<int> processors(1, 64);
  const auto sizes = [](const char* name, const std::vector<double>& nominal, int P) {
    const ScheduleInfo* info = find_schedule(name);
    std::vector<int> out;
    for (const ModelledChunk& c :
         modelled_chunks(schedule_choice(name, resolve_params(info->params, {})), nominal,
                         std::vector<double>(P, 1.0)))
      out.push_back(c.count);
    return out;
  };
  for (int trial = 0; trial < 80; ++trial) {
    const int n =
        trial < 2 ? (trial == 0 ? 100 : 1'000'000) : static_cast<int>(std::pow(10, log_n(draw)));
    const int P = trial < 2 ? 64 : processors(draw);
    const double t = trial < 8 ? 1e-6 : std::pow(10, log_t(draw));
    const std::vector<double> nominal(n, t);
    const std::vector<int> fac2 = sizes("fac2", nominal, P);
    for (const char* name : {"awf_b", "awf_c", "awf_d", "awf_e"})
      ASSERT_EQ(sizes(name, nominal, P), fac2)
          << name << ": N " << n << ", P " << P << ", " << t << " s";
  }
}

// Banicescu & Liu 2000: (D + 2TR - sqrt(D^2 + 4DTR)) / (2 mu_i); D = 2, T = 1/2, R = 100 gives
// (102 - sqrt(404)) / 2 = 40.95. In the calculator: processor 0 measured 1 s and 3 s (mu 2,
// variance 1), processor 1 4 s twice (mu 4): D = 0.5, T = 4/3, R = 96 gives 60.12 for processor 0.
TEST(LoopSchedules, AdaptiveFactoringUsesTheMeasuredMeansAndVariances) {
  EXPECT_EQ(af_chunk(100, 1.0, 2.0, 0.5), 41);
  EXPECT_EQ(af_chunk(90, 1.0, 0.0, 0.5), 45);  // no variance: its share of what remains
  ChunkCalculator c = make("af", {1, 1}, {{"probe", std::int64_t{2}}});
  c.start(100);
  EXPECT_EQ(c.next(0), 2);  // probes until measured
  EXPECT_EQ(c.next(1), 2);
  c.finished(0, {2, 4, 10, 4});
  c.finished(1, {2, 8, 32, 8});
  EXPECT_EQ(c.next(0), 61);
}

// Equal iteration times: no variance, so AF gives each processor its share of what remains,
// R / P, loop after loop, however the kept sums round (variances of a rounding error summed and
// taken back over thousands of loops once left D below 0, and the square root NaN: chunks of 1).
TEST(LoopSchedules, AdaptiveFactoringWithoutVarianceSplitsTheRemainder) {
  ChunkCalculator c = make("af", {1, 1, 1, 1});
  for (int loop = 0; loop < 5000; ++loop) {
    c.start(1000);
    int chunks = 0, first = 0;
    for (int p = 0;; p = (p + 1) % 4) {
      const int k = c.next(p);
      if (k == 0) break;
      if (chunks++ == 0) first = k;
      c.finished(p, {k, k * 1e-6, k * 1e-12, k * 1e-6});
    }
    if (loop > 0) {
      ASSERT_EQ(first, 250) << "loop " << loop;
    }
    ASSERT_LE(chunks, 40) << "loop " << loop;
  }
}

TEST(LoopSchedules, EveryTechniqueHandsOutEveryIterationOnceInEveryLoop) {
  for (const LoopTechniqueInfo& t : loop_technique_registry())
    for (int n : {0, 1, 7, 1000}) {
      SCOPED_TRACE(t.name + " n=" + std::to_string(n));
      ChunkCalculator c(t.technique, resolve_params(t.params, {}), std::vector<double>{1, 0.5, 1});
      for (int loop = 0; loop < 2; ++loop) {  // the adaptive ones keep what they measured
        c.start(n);
        int total = 0;
        for (int i = 0;; i = (i + 1) % 3) {
          const int k = c.next(i);
          if (k == 0) break;
          EXPECT_GE(k, 1);
          total += k;
          c.finished(i, {k, k * (i == 1 ? 2e-3 : 1e-3), k * 1e-6, k * 1e-3});
        }
        EXPECT_EQ(total, n);
      }
    }
}

// A config entry names a technique and its parameters; bad values are refused where they stand.
TEST(LoopSchedules, ConfigEntriesNameATechniqueWithItsParameters) {
  const std::string head =
      "workload: { kind: block_substitution, blocks: 8 }\nplatform: { processors: 2 }\n";
  const Config c = load_config_text(
      head + "balancers:\n  - { schedule: tss, first: 10 }\n  - { schedule: fac, cv: 0.5 }\n",
      "t.yaml");
  ASSERT_EQ(c.runs.size(), 2u);
  const ScheduleChoice tss =
      schedule_choice(c.runs[0].balancer.schedule_name, c.runs[0].balancer.schedule_params);
  EXPECT_EQ(tss.kind, InStepSchedule::kChunked);
  EXPECT_EQ(tss.technique, LoopTechnique::kTSS);
  EXPECT_EQ(tss.params.integer("first"), 10);
  EXPECT_EQ(tss.params.integer("last"), 1);
  EXPECT_EQ(c.runs[1].balancer.label, "fac");
  EXPECT_EQ(testing::config_error_of(head + "balancers:\n  - { schedule: gss, min_chunk: 0 }\n"),
            "FILE:4:33: min_chunk must be >= 1, got 0");
}

// A technique's run in the simulator.
std::vector<StepRecord> simulate(const std::string& schedule, const std::string& platform,
                                 const std::string& execution = "") {
  return testing::first_run_steps(
      "name: t\nworkload: { kind: synthetic, modules: 1000, mean: 1, sd: 0 }\nplatform: { " +
      platform + " }\nexecution: { executor: simulate, record: modules, steps: 2" + execution +
      " }\nbalancers: [ { schedule: " + schedule + " } ]\n");
}

// The lengths of the runs of equal owners, in module order: the chunks as handed out.
std::vector<int> owner_runs(const std::vector<int>& owner) {
  std::vector<int> runs;
  for (std::size_t m = 0; m < owner.size(); ++m)
    if (m == 0 || owner[m] != owner[m - 1])
      runs.push_back(1);
    else
      ++runs.back();
  return runs;
}

// Equal modules on equal processors under FAC2: every processor is idle at the same modelled
// times, the lowest first, so the simulator's chunks are the hand-computed batches, processor by
// processor.
TEST(LoopSchedules, TheSimulatorRunsTheHandComputedChunks) {
  const auto fac2 = simulate("fac2", "processors: 4", ", sim_latency: 0.5");
  ASSERT_EQ(fac2.size(), 2u);
  for (const StepRecord& r : fac2) {
    EXPECT_EQ(owner_runs(r.module_owner),
              batches({{125, 4}, {63, 4}, {31, 4}, {16, 4}, {8, 4}, {4, 4}, {2, 4}, {1, 4}}));
    EXPECT_EQ(std::vector<int>(r.module_owner.begin(), r.module_owner.begin() + 5),
              (std::vector<int>{0, 0, 0, 0, 0}));
    EXPECT_EQ(r.module_owner[125], 1);
    EXPECT_DOUBLE_EQ(r.metrics.end()[-4], 32 * 0.5);  // sim_synchronisation: 32 requests
    EXPECT_DOUBLE_EQ(r.makespan, 250 + 8 * 0.5);
  }
}

// Every technique in the simulator: each module runs once a step on a real processor, the
// busy times add up to the work, and no technique beats the ideal.
TEST(LoopSchedules, EveryTechniqueRunsInTheSimulator) {
  for (const LoopTechniqueInfo& t : loop_technique_registry()) {
    SCOPED_TRACE(t.name);
    const auto records = simulate(t.name, "processors: 3, speeds: [1, 0.5, 1]");
    ASSERT_EQ(records.size(), 2u);
    for (const StepRecord& r : records) {
      ASSERT_EQ(r.module_owner.size(), 1000u);
      double work = 0;
      for (int m = 0; m < 1000; ++m) {
        ASSERT_GE(r.module_owner[m], 0);
        ASSERT_LT(r.module_owner[m], 3);
        EXPECT_DOUBLE_EQ(r.module_cost[m], r.module_owner[m] == 1 ? 2.0 : 1.0);
      }
      for (int p = 0; p < 3; ++p) work += r.busy[p] * (p == 1 ? 0.5 : 1.0);
      EXPECT_DOUBLE_EQ(work, 1000);
      EXPECT_GE(r.makespan, r.ideal - 1e-9);
    }
  }
}

// Weighted factoring knows the speeds up front: it beats FAC2 where one processor is slow.
TEST(LoopSchedules, SimulatedWeightedFactoringBeatsFac2OnUnequalSpeeds) {
  const std::string platform = "processors: 4, speeds: [1, 1, 1, 0.25]";
  EXPECT_LT(simulate("wf", platform).front().makespan, simulate("fac2", platform).front().makespan);
}

// The OpenMP runtime's schedules run as libgomp hands them out (harness/sim/schedule_model.h),
// here 1000 modules of 1 s on four processors, one at half speed: omp_static's four blocks of 250
// (the slow one's takes 500 s), omp_guided's ceil(R / 4) chunks of 250 then 188; omp_tasks as
// ss, one module to whoever is idle. omp_runtime, whose schedule OMP_SCHEDULE picks, is refused.
TEST(LoopSchedules, TheSimulatorRunsTheOpenMPRuntimesSchedulesButOmpRuntime) {
  const std::string platform = "processors: 4, speeds: [1, 1, 1, 0.5]";
  const StepRecord statically = simulate("omp_static", platform).front();
  EXPECT_EQ(owner_runs(statically.module_owner), (std::vector<int>{250, 250, 250, 250}));
  EXPECT_NEAR(statically.makespan, 500.0, 1e-6);
  const std::vector<int> guided = owner_runs(simulate("omp_guided", platform).front().module_owner);
  ASSERT_GE(guided.size(), 2u);
  EXPECT_EQ(guided[0], 250);
  EXPECT_EQ(guided[1], 188);
  EXPECT_LT(simulate("omp_dynamic", platform).front().makespan, statically.makespan);
  EXPECT_EQ(simulate("omp_tasks", platform).front().module_owner,
            simulate("ss", platform).front().module_owner);
  EXPECT_THROW(simulate("omp_runtime", "processors: 2"), std::exception);
}

}  // namespace
}  // namespace lbb
