// `dynamic: python` (balancers/between_steps/python.h): the example script gives the built-in
// greedy's owners on every view; hostile answers are refused with the script, the function, the
// step and the problem before anything moves; scripts that do not import are refused at their
// config key; and the interpreter serves threads other than the one that started it.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "balancers/between_steps/greedy.h"
#include "balancers/between_steps/python.h"
#include "balancers/partition/block.h"
#include "tests/plugin_views.h"

namespace lbb {
namespace {

using testing::owners_after;
using testing::random_loads;
using testing::source_path;

const std::string kGreedy = source_path("examples/balancers/greedy.py");
const std::string kHostile = source_path("tests/plugins/hostile.py");

TEST(PythonBalancer, GreedyScriptGivesGreedysOwnersOnEveryView) {
  std::mt19937_64 rng(52);
  int views = 0, equal = 0, moved = 0;
  for (double gain : {0.0, 0.05, 0.3}) {
    PythonBalancer script(kGreedy, "balance", "", "", gain);
    GreedyBalancer builtin(gain);
    for (int i = 0; i < 300; ++i) {
      const int processors = 1 + static_cast<int>(rng() % 40);
      const LoadSnapshot s = random_loads(rng, processors, processors * (1 + rng() % 6));
      const Topology topology(TopologyKind::kComplete, processors);
      const Decision want = builtin.decide(s.view(topology));
      const Decision got = script.decide(s.view(topology));
      ++views;
      equal += owners_after(got, s) == owners_after(want, s);
      moved += want.act;
    }
  }
  EXPECT_EQ(equal, views) << "the script's owners differ from greedy's on " << views - equal
                          << " of " << views << " views";
  EXPECT_GT(moved, views / 4);  // the comparison covers decisions that move
}

// Equal speeds and many modules per processor: the script's batches of many modules at once.
TEST(PythonBalancer, GreedyScriptIsExactInLargeBatches) {
  std::mt19937_64 rng(7);
  PythonBalancer script(kGreedy, "balance", "", "", 0);
  GreedyBalancer builtin(0);
  for (int processors : {64, 1024}) {
    LoadSnapshot s = random_loads(rng, processors, 8 * processors);
    s.speed.assign(processors, 1.0);
    const Topology topology(TopologyKind::kRing, processors);
    EXPECT_EQ(owners_after(script.decide(s.view(topology)), s),
              owners_after(builtin.decide(s.view(topology)), s))
        << processors;
  }
}

void expect_refused(const std::string& function, const std::string& problem) {
  PythonBalancer script(kHostile, function, "");
  std::mt19937_64 rng(1);
  LoadSnapshot s = random_loads(rng, 4, 12);
  const Topology topology(TopologyKind::kChain, 4);
  s.step = 0;
  EXPECT_FALSE(script.decide(s.view(topology)).act) << function;  // behaves at the first step
  s.step = 2;
  try {
    script.decide(s.view(topology));
    ADD_FAILURE() << function << " was not refused";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("python " + function + " in " + kHostile + ", step 2, phase 0: "),
              std::string::npos)
        << what;
    EXPECT_NE(what.find(problem), std::string::npos) << what;
  }
}

TEST(PythonBalancer, HostileAnswersAreRefusedNamingScriptStepAndProblem) {
  expect_refused("wrong_length", "returned 13 owners for 12 modules");
  expect_refused("out_of_range", "module 0: owner 4 is not a processor (0..3)");
  expect_refused("huge", "module 0: owner 1099511627776 is not a processor");
  expect_refused("floats", "returned a 1-D array of float64, not a 1-D array of integer owners");
  expect_refused("raising", "raised ValueError: refusing on purpose at step 2 (at " + kHostile);
  expect_refused("keeps_view", "kept the view or one of its arrays past the call");
  expect_refused("writes_view", "ValueError: assignment destination is read-only");
}

TEST(PythonBalancer, ModulesThatMayNotMoveAreKeptAndNoneKeeps) {
  PythonBalancer script(kHostile, "moves_all_to_0", "");
  LoadSnapshot s;
  s.cost = {4, 4, 4, 4};
  s.bytes.assign(4, 8);
  s.speed = {1, 1};
  s.owner = {0, 1, 0, 1};
  const Topology topology(TopologyKind::kChain, 2);
  LoadView v = s.view(topology);
  EXPECT_TRUE(script.decide(v).act);
  const std::vector<unsigned char> pinned = {1, 0, 1, 1};
  v.migratable = pinned;
  try {
    script.decide(v);
    ADD_FAILURE() << "a pinned module moved";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("module 1 may not move (migratable: false)"),
              std::string::npos)
        << e.what();
  }
  PythonBalancer same(kHostile, "same", "");  // answering the view's own owners moves nothing
  EXPECT_FALSE(same.decide(s.view(topology)).act);
  PythonBalancer echo(kHostile, "echo_params", "a=1;b=x y");  // raises unless given these
  EXPECT_FALSE(echo.decide(s.view(topology)).act);
}

// What `lbbench validate` reports at the config's `script:` or `function:` key (ParamError).
TEST(PythonBalancer, ScriptsThatDoNotImportAreRefusedWithTheirReason) {
  const std::string syntax = source_path("tests/plugins/syntax_error.py");
  const std::tuple<std::string, std::string, std::string, std::string> cases[] = {
      {source_path("absent.py"), "balance", "script", "no such file"},
      {syntax, "balance", "script", syntax + ":4:11: SyntaxError: '(' was never closed"},
      {source_path("tests/plugins/import_raises.py"), "balance", "script",
       "raised while it was imported: RuntimeError: no import for you"},
      {kHostile, "absent", "function", "has no function 'absent'"},
      {kHostile, "np", "function", "has no function 'np'"},  // a module, not callable
      {kHostile, "bad_decides_on", "function",
       "decides_on is neither \"one_rank\" nor \"every_rank\""}};
  for (const auto& [path, function, key, why] : cases) {
    try {
      PythonBalancer script(path, function, "");
      ADD_FAILURE() << path << " " << function << " loaded";
    } catch (const ParamError& e) {
      EXPECT_EQ(e.param(), key) << path;
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  }
}

// Where the function decides under mpirun: its decides_on attribute, rank 0 where absent.
TEST(PythonBalancer, DecidesOnEveryRankWhereTheFunctionSaysSo) {
  const std::string every = source_path("tests/plugins/every_rank.py");
  EXPECT_EQ(PythonBalancer(every, "balance", "").scope(), DecisionScope::kAll);
  EXPECT_EQ(PythonBalancer(every, "one_rank", "").scope(), DecisionScope::kLeader);
  EXPECT_EQ(PythonBalancer(kGreedy, "balance", "").scope(), DecisionScope::kLeader);
  EXPECT_FALSE(PythonBalancer(every, "balance", "").redundant());  // one thread a process
}

// The interpreter was started on this thread (or another test's); decisions from other threads
// at once each take the lock, as the harness's OpenMP threads do.
TEST(PythonBalancer, DecidesFromOtherThreads) {
  std::vector<int> equal(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      PythonBalancer script(kGreedy, "balance", "", "", 0);
      GreedyBalancer builtin(0);
      std::mt19937_64 rng(t);
      for (int i = 0; i < 25; ++i) {
        const LoadSnapshot s = random_loads(rng, 8, 40);
        const Topology topology(TopologyKind::kRing, 8);
        equal[t] += owners_after(script.decide(s.view(topology)), s) ==
                    owners_after(builtin.decide(s.view(topology)), s);
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(equal, std::vector<int>(4, 25));
}

}  // namespace
}  // namespace lbb
