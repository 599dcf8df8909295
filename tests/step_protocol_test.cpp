// The step protocol (harness/exec/step_protocol.h) on a scripted machine: the order of a step's
// hooks, one decision a phase, moves of exactly the modules whose next owner lacks them, and one
// record a measured step, closed after its last moves. What every machine (threads, ranks,
// simulated processors) gets from the loop, shown without one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "executor_test_support.h"
#include "harness/exec/step_protocol.h"
#include "tests/serial_driver.h"

namespace lbb {
namespace {

// Moves module 0 to the next processor at each decision.
class Rotate final : public Balancer {
 public:
  Decision decide(const LoadView& v) override {
    ++calls;
    seen.push_back(v.cost[0]);
    Decision d;
    d.act = true;
    d.owner.assign(v.owner.begin(), v.owner.end());
    d.owner[0] = (d.owner[0] + 1) % v.processors();
    return d;
  }
  int calls = 0;
  std::vector<double> seen;  // module 0's cost in each view
};

// One agent; each module costs 1 s on its owner; it keeps the hooks' order and the moves.
class ScriptedMachine final : public StepMachine {
 public:
  explicit ScriptedMachine(ProtocolState& state) : st_(state) {}
  void run(const std::function<void(int)>& body) override { body(0); }
  bool place(int) override { return log("place"); }
  void run_phase(int, int s, int ph) override {
    if (ph == 0) st_.recorder.clear();
    for (int m = 0; m < st_.M; ++m) {
      st_.phase[ph].cost[m] = 1.0 + growth * s;
      st_.recorder.processor(st_.phase[ph].owner[m]).phase[ph].busy += st_.phase[ph].cost[m];
    }
    log("run " + std::to_string(s) + "." + std::to_string(ph));
  }
  bool meet(int, int, int, const std::function<void()>& f) override {
    log("meet");
    f();
    return true;
  }
  std::vector<double> finish_step(int) override {
    log("finish");
    return {};
  }
  int measure_view(int s, int, std::vector<double>&) override { return s; }
  std::optional<Decision> decide(int, Balancer& b, const LoadView& view) override {
    log("decide");
    return b.decide(view);
  }
  bool move(int, int ph, std::span<const int> moved, const std::function<void()>& then) override {
    const std::vector<int>& next = st_.phase[(ph + 1) % st_.phases].owner;
    for (int m : moved) {
      EXPECT_NE(st_.where[m], next[m]);  // only what its next owner lacks
      ++st_.recorder.processor(next[m]).migrated;
    }
    log("move " + std::to_string(moved.size()));
    then();
    return true;
  }
  StepEnd end_step(int) override {
    log("close");
    return {};
  }
  void finish_record(StepRecord&) override {}

  std::vector<std::string> hooks;
  double growth = 0;  // each module's cost grows by this much a step

 private:
  bool log(std::string hook) {
    hooks.push_back(std::move(hook));
    return true;
  }
  ProtocolState& st_;
};

struct ProtocolOutcome {
  std::vector<std::string> hooks;
  std::vector<StepRecord> records;
  ExecutionResult result;
  int decisions = 0;
  std::vector<double> seen;  // phase 0's balancer: module 0's cost in each view
};

ProtocolOutcome run(Workload& w, int P, int warmup, int steps, int balance_every = 1,
                    LoadModelSpec model = {}, double growth = 0) {
  const Topology topology(TopologyKind::kChain, P);
  ExecutionPlan plan = testing::plan_for(P, steps, topology);
  plan.warmup = warmup;
  plan.balance_every = balance_every;
  plan.load_model = model;
  Rotate rotate;
  std::vector<Rotate> later(w.phases() - 1);
  plan.dynamic = &rotate;
  for (Rotate& b : later) plan.later_phase_dynamic.push_back(&b);
  ProtocolState state(w, plan, MachineTraits{});
  ScriptedMachine machine(state);
  machine.growth = growth;
  testing::CollectSteps sink;
  ProtocolOutcome out;
  out.result = StepProtocol(state, machine, sink).run();
  out.hooks = machine.hooks;
  out.records = std::move(sink.records);
  out.decisions = rotate.calls;
  out.seen = rotate.seen;
  for (const Rotate& b : later) out.decisions += b.calls;
  return out;
}

TEST(StepProtocol, OneStepIsRunMeetFinishDecideMoveClose) {
  auto w = testing::make_workload("block_substitution", {"blocks=8"});
  const ProtocolOutcome r = run(*w, 4, 1, 2);
  const std::vector<std::string> step = {"meet", "finish", "decide", "move 1", "close"};
  std::vector<std::string> expected = {"place"};
  for (int s = 0; s < 3; ++s) {
    expected.push_back("run " + std::to_string(s) + ".0");
    expected.insert(expected.end(), step.begin(), step.end());
  }
  EXPECT_EQ(r.hooks, expected);
  EXPECT_EQ(r.decisions, 3);        // warm-up included
  ASSERT_EQ(r.records.size(), 2u);  // warm-up not handed on
  for (std::size_t k = 0; k < r.records.size(); ++k) {
    EXPECT_EQ(r.records[k].step, static_cast<int>(k));
    EXPECT_EQ(r.records[k].migrations, 1);                             // closed after its move
    EXPECT_EQ(r.records[k].module_owner[0], static_cast<int>(k + 1));  // before the decision
  }
  EXPECT_EQ(r.result.migrations, 3);
  EXPECT_EQ(r.result.final_owner[0], 3);
}

TEST(StepProtocol, EveryPhaseDecidesAndTheNextPhasesOwnersGetTheirStates) {
  auto w = testing::make_workload("trfd", {"n=8"});
  ASSERT_EQ(w->phases(), 2);
  const ProtocolOutcome r = run(*w, 2, 0, 2);
  EXPECT_EQ(r.decisions, 4);  // one a phase a step
  int closes = 0, finishes = 0;
  for (const std::string& h : r.hooks) {
    closes += h == "close";
    finishes += h == "finish";
  }
  EXPECT_EQ(closes, 2);
  EXPECT_EQ(finishes, 2);  // after the last phase only
  ASSERT_EQ(r.records.size(), 2u);
  for (const StepRecord& rec : r.records)
    EXPECT_EQ(rec.phase_module_owner.size(), 2u * w->module_count());
  ASSERT_EQ(r.result.final_phase_owner.size(), 2u);
}

// balance_every: 3 decides after the 3rd, 6th and 9th step run (s = 2, 5, 8 from 0, the warm-up
// step counted): measured steps 1, 4 and 7 move module 0, the others nothing.
TEST(StepProtocol, BalanceEveryThreeDecidesAfterStepsThreeSixNine) {
  auto w = testing::make_workload("block_substitution", {"blocks=8"});
  const ProtocolOutcome r = run(*w, 4, 1, 8, 3);
  EXPECT_EQ(r.decisions, 3);
  int runs = 0;
  std::vector<int> decided_after;  // the steps (from 1) each decision followed
  for (const std::string& h : r.hooks) {
    runs += h.rfind("run ", 0) == 0;
    if (h == "decide") decided_after.push_back(runs);
  }
  EXPECT_EQ(decided_after, (std::vector<int>{3, 6, 9}));
  ASSERT_EQ(r.records.size(), 8u);
  for (const StepRecord& rec : r.records)
    EXPECT_EQ(rec.migrations, rec.step == 1 || rec.step == 4 || rec.step == 7 ? 1 : 0) << rec.step;
  EXPECT_EQ(r.result.final_owner[0], 3);
}

// Costs 1, 2, 3, ... a step: the linear model over 4 steps sees the next step's cost (1 after one
// step, 3 after two, then 4, 5: exact on a line); the moving average over 2 steps the mean of the
// last two (1, 1.5, 2.5, 3.5); the last step's costs without a model.
TEST(StepProtocol, TheBalancerDecidesOnTheLoadModelsPrediction) {
  auto w = testing::make_workload("block_substitution", {"blocks=8"});
  EXPECT_EQ(run(*w, 4, 0, 4, 1, {}, 1.0).seen, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(run(*w, 4, 0, 4, 1, {LoadModelKind::kLinear, 4}, 1.0).seen,
            (std::vector<double>{1, 3, 4, 5}));
  EXPECT_EQ(run(*w, 4, 0, 4, 1, {LoadModelKind::kMovingAverage, 2}, 1.0).seen,
            (std::vector<double>{1, 1.5, 2.5, 3.5}));
  // The model reads the steps between decisions too: every 2 steps, the trend of 1, 2 then 1..4.
  EXPECT_EQ(run(*w, 4, 0, 4, 2, {LoadModelKind::kLinear, 4}, 1.0).seen,
            (std::vector<double>{3, 5}));
}

}  // namespace
}  // namespace lbb
