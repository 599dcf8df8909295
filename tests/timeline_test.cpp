// The measured timeline (execution.timeline): the recorder's waits fill the gaps around what a
// processor did meanwhile, and a threads run records every module execution once per step on its
// owner's track, no two spans of a processor overlapping.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <tuple>

#include "executor_test_support.h"
#include "harness/exec/bsp_executor.h"
#include "harness/exec/timeline_recorder.h"
#include "workloads/block_substitution.h"

namespace lbb {
namespace {

void expect_tracks_apart(const std::vector<TimelineSpan>& spans) {
  std::map<int, std::int64_t> last_end;
  for (const TimelineSpan& s : spans) {
    EXPECT_LE(s.start, s.end);
    if (last_end.count(s.proc)) {
      EXPECT_GE(s.start, last_end[s.proc]) << "processor " << s.proc;
    }
    last_end[s.proc] = s.end;
  }
}

TEST(TimelineRecorder, WaitsFillTheGapsAroundWhatTheProcessorDid) {
  TimelineRecorder t;
  t.enable(2, 16);
  t.set_base(100.0);
  t.add(0, SpanKind::kModule, 1, 0, 3, 100.0, 100.5);
  t.idle_from(0, 100.5, 1, 0);
  t.add(0, SpanKind::kDecision, 1, 0, -1, 100.7, 100.8);  // the meeting's serial part
  t.resume(0, 101.0);
  t.add(0, SpanKind::kModule, 0, 0, 3, 99.0, 99.5);  // a warm-up step (0 of warmup 1): dropped
  const std::vector<TimelineSpan> s = t.collect(1);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].kind, SpanKind::kModule);
  EXPECT_EQ(s[0].step, 0);
  EXPECT_EQ(s[0].end, 500'000'000);
  EXPECT_EQ(s[1].kind, SpanKind::kWait);
  EXPECT_EQ(s[1].start, 500'000'000);
  EXPECT_EQ(s[1].end, 700'000'000);
  EXPECT_EQ(s[2].kind, SpanKind::kDecision);
  EXPECT_EQ(s[3].kind, SpanKind::kWait);
  EXPECT_EQ(s[3].start, 800'000'000);
  EXPECT_EQ(s[3].end, 1'000'000'000);
  expect_tracks_apart(s);
}

TEST(TimelineRecorder, OffRecordsNothing) {
  TimelineRecorder t;
  t.add(0, SpanKind::kModule, 0, 0, 0, 0.0, 1.0);  // no buffer: must not touch one
  t.resume_all(2.0);
  EXPECT_TRUE(t.collect(0).empty());
}

// Moves a third of the modules to random processors every step.
class TimelineShuffler final : public Balancer {
 public:
  Decision decide(const LoadView& v) override {
    Decision d{true, {v.owner.begin(), v.owner.end()}, 1};
    for (int m = 0; m < v.modules(); ++m)
      if (rng_() % 3 == 0) d.owner[m] = static_cast<int>(rng_() % v.processors());
    return d;
  }

 private:
  std::mt19937_64 rng_{3};
};

TEST(BspTimeline, EveryModuleOnceAStepOnItsOwnerNeverOverlapping) {
  Params p;
  p.set("blocks", std::int64_t{12});
  p.set("width", std::int64_t{8});
  p.set("mean_lines", 3.0);
  BlockSubstitution w(resolve_params(BlockSubstitution::info().params, p));
  ModuleStore store(w);
  const Topology topo(TopologyKind::kComplete, 3);
  ExecutionPlan plan = testing::plan_for(3, 6, topo);
  plan.warmup = 2;
  plan.timeline = true;
  TimelineShuffler shuffle;
  plan.dynamic = &shuffle;
  testing::CollectSteps sink;
  const ExecutionResult x = BspExecutor().run(w, store, plan, sink);
  ASSERT_EQ(sink.records.size(), 6u);
  std::map<std::pair<int, int>, int> runs;  // (step, module) -> its span's processor
  std::map<SpanKind, int> kinds;
  for (const TimelineSpan& s : x.spans) {
    ++kinds[s.kind];
    ASSERT_GE(s.step, 0);
    ASSERT_LT(s.step, 6);
    if (s.kind != SpanKind::kModule) continue;
    EXPECT_FALSE(runs.count({s.step, s.module})) << "module " << s.module << " twice";
    runs[{s.step, s.module}] = s.proc;
    EXPECT_EQ(s.proc, sink.records[s.step].module_owner[s.module]) << "module " << s.module;
  }
  EXPECT_EQ(runs.size(), 6u * 12u);
  EXPECT_EQ(kinds[SpanKind::kDecision], 6);  // one decider a step
  EXPECT_EQ(kinds[SpanKind::kSerial], 6);
  EXPECT_GT(kinds[SpanKind::kMigration], 0);
  EXPECT_GT(kinds[SpanKind::kWait], 0);
  expect_tracks_apart(x.spans);

  plan.timeline = false;
  ModuleStore again(w);
  EXPECT_TRUE(BspExecutor().run(w, again, plan, sink).spans.empty());
}

}  // namespace
}  // namespace lbb
