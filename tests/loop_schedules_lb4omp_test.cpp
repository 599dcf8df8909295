// The schedules LB4OMP has beside the ones of loop_schedules_test.cpp: mFAC, mAF, BOLD and LLVM's
// static_steal, against chunk sequences computed by hand (the arithmetic in each comment).
#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "balancers/in_step/loop_schedules.h"
#include "harness/base/schedule.h"

namespace lbb::lb4omp_test {
namespace {

ChunkCalculator make(const std::string& name, int P,
                     std::initializer_list<std::pair<const char*, ParamValue>> given = {}) {
  const ScheduleInfo* info = find_schedule(name);
  EXPECT_NE(info, nullptr) << name;
  Params params;
  for (const auto& [key, value] : given) params.set(key, value);
  return ChunkCalculator(info->technique, resolve_params(info->params, params),
                         std::vector<double>(P, 1.0));
}

std::vector<int> sizes(ChunkCalculator c, int n, int P) {  // processors ask in turn
  std::vector<int> out;
  c.start(n);
  for (int i = 0;; i = (i + 1) % P) {
    const int k = c.next(i);
    if (k == 0) return out;
    out.push_back(k);
  }
}

std::vector<int> batches(std::initializer_list<std::pair<int, int>> runs) {  // (size, times)
  std::vector<int> out;
  for (auto [size, times] : runs) out.insert(out.end(), times, size);
  return out;
}

// N = 1000, P = 4, cv = 1, so b_j = 2 / sqrt(R_j). b_0 = 0.0632, x_0 = 1.0935, K_0 =
// ceil(1000 / 4.374) = 229; R_1 = 84: x = 2.4866, K = ceil(8.45) = 9; R_2 = 48: x = 2.6667,
// K = ceil(4.5) = 5; R_3 = 28: x = 2.9122, K = 3; R_4 = 16: x = 3.2808, K = 2; R_5 = 8: x = 4,
// K = 1; R_6 = 4: K = 1; R_7 = 0.
TEST(Lb4ompSchedules, MfacComputesEachBatchFromItsNumber) {
  const std::vector<int> hand = batches({{229, 4}, {9, 4}, {5, 4}, {3, 4}, {2, 4}, {1, 8}});
  EXPECT_EQ(sizes(make("mfac", 4), 1000, 4), hand);
  for (int b = 0; b < 7; ++b) EXPECT_EQ(mfac_chunk(1000, 4, 1.0, b), hand[4 * b]) << b;
  EXPECT_EQ(mfac_chunk(1000, 4, 1.0, 7), 0);  // the modelled remainder is spent
  // Handed out in order, the batch number's remainder is the real one: FAC's sequence.
  EXPECT_EQ(sizes(make("fac", 4), 1000, 4), hand);
}

// LLVM's static_steal, N = 10, P = 2, chunk 1: ranges [0, 5) and [5, 10). Thread 0 runs its own,
// then steals one chunk at a time from the back of thread 1's (5 left, then 4, 3, 2: a quarter is
// less than one), never its last one.
TEST(Lb4ompSchedules, StaticStealTakesItsOwnBlockThenStealsFromTheBack) {
  ChunkCalculator c = make("static_steal", 2);
  c.start(10);
  std::vector<int> firsts;
  for (Chunk k = c.take(0); k.count > 0; k = c.take(0)) {
    EXPECT_EQ(k.count, 1);
    firsts.push_back(k.first);
  }
  EXPECT_EQ(firsts, (std::vector<int>{0, 1, 2, 3, 4, 9, 8, 7, 6}));
  const Chunk last = c.take(1);
  EXPECT_EQ(last.first, 5);
  EXPECT_EQ(c.take(1).count, 0);
  EXPECT_EQ(c.remaining(), 0);
}

// N = 98, chunk 5: 20 chunks (the last of 3), ranges [0, 10) and [10, 20) of chunks. Thread 1
// runs its 10, then steals 10 / 4 = 2 (chunks 8, 9), 8 / 4 = 2 (6, 7), then one at a time while
// 6, 5, 4, 3, 2 are left; thread 0 keeps chunk 0.
TEST(Lb4ompSchedules, StaticStealTakesAQuarterOfWhatIsLeft) {
  ChunkCalculator c = make("static_steal", 2, {{"chunk", std::int64_t{5}}});
  c.start(98);
  std::vector<int> firsts;
  for (Chunk k = c.take(1); k.count > 0; k = c.take(1)) {
    EXPECT_EQ(k.count, k.first == 95 ? 3 : 5);
    firsts.push_back(k.first);
  }
  EXPECT_EQ(firsts, (std::vector<int>{50, 55, 60, 65, 70, 75, 80, 85, 90, 95, 40, 45, 30, 35, 25,
                                      20, 15, 10, 5}));
  const Chunk own = c.take(0);
  EXPECT_EQ(own.first, 0);
  EXPECT_EQ(own.count, 5);
  EXPECT_EQ(c.take(0).count, 0);
}

// Fewer chunks than threads: LLVM's static_balanced, a block each, the fourth thread none.
TEST(Lb4ompSchedules, StaticStealWithFewChunksRunsStaticBlocks) {
  ChunkCalculator c = make("static_steal", 4);
  c.start(3);
  for (int p = 0; p < 3; ++p) {
    const Chunk k = c.take(p);
    EXPECT_EQ(k.first, p);
    EXPECT_EQ(k.count, 1);
  }
  EXPECT_EQ(c.take(3).count, 0);
}

// Hagerup 1997 with cv = 1, h / mu = 1e-3: a = 2, b = 16 ln 16 = 44.36, c1 = 1.443e-3, c2 =
// 3.616e-3, c3 = -5.622. First request, R = M = N = 1000, P = 4: q = 250, t = 250, ln q = 5.521,
// v = 0.8493, d = 1000 / 0.3318 = 3013.7, s = 2 (8.011 + 5.622)(1 + 1/4) = 34.08, w = ln(4.689) +
// ln(44.36) = 5.338; t + s/2 - sqrt(s (t + s/4)) + c1 w = 250 + 17.04 - 93.87 + 0.008 = 173.18.
TEST(Lb4ompSchedules, BoldFollowsHagerupsFormula) {
  const BoldConstants k = bold_constants(1.0, 1e-3);
  EXPECT_NEAR(k.b, 16 * std::log(16.0), 1e-12);
  EXPECT_EQ(bold_chunk(k, 1000, 4, 1000, 1000), 173);
  EXPECT_EQ(bold_chunk(k, 4, 4, 4, 4), 1);  // q <= 1
  // Four requests at time 0: nothing finishes, R falls, M and N stay 1000 (the same formula).
  ChunkCalculator c = make("bold", 4, {{"mu", 1e-3}, {"cv", 1.0}, {"overhead", 1e-6}});
  c.start(1000);
  std::vector<int> first;
  for (int p = 0; p < 4; ++p) first.push_back(c.take(p, 0.0).count);
  EXPECT_EQ(first, (std::vector<int>{173, 173, 174, 175}));
  // Processor 0 asks again at 0.1 s: M = 1000 - 173; N loses 0.1 s at the four modelled speeds
  // k / (k mu + h) and what processor 0's own estimate lacked of its 173: N = 527.0, R = 305,
  // so r = R: the chunk of R = 305 with M = 827 is 80.
  EXPECT_EQ(c.take(0, 0.1).count, 80);
  EXPECT_EQ(bold_chunk(k, 305, 4, 827, 527.0), 80);
}

// mAF: AF's formula on each chunk's elapsed time per module, overhead included. Two processors
// measure after `probe` 2: processor 0's chunk of 2 took 2 s elapsed (1 s a module), processor
// 1's 4 s (2 s a module); one sample each, no variance: D = 0, T = 1 / (1 + 1/2) = 2/3, the
// chunk is (2 T R) / (2 mu_i): R = 996 gives 664 for processor 0.
TEST(Lb4ompSchedules, MafUsesTheElapsedTimes) {
  ChunkCalculator c = make("maf", 2);
  c.start(1000);
  EXPECT_EQ(c.next(0), 2);
  EXPECT_EQ(c.next(1), 2);
  c.finished(0, {2, 0.5, 0.125, 2.0});  // seconds 0.5 (AF's), elapsed 2 (mAF's)
  c.finished(1, {2, 0.5, 0.125, 4.0});
  EXPECT_EQ(c.next(0), 664);
  ChunkCalculator af = make("af", 2);  // AF reads the seconds: equal rates, R / 2 each
  af.start(1000);
  af.next(0), af.next(1);
  af.finished(0, {2, 0.5, 0.125, 2.0});
  af.finished(1, {2, 0.5, 0.125, 4.0});
  EXPECT_EQ(af.next(0), 498);
}

}  // namespace
}  // namespace lbb::lb4omp_test
