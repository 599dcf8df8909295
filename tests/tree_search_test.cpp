#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>

#include "balancers/balancer.h"
#include "harness/config/config_loader.h"
#include "harness/exec/level_executor.h"
#include "kernels/uts_tree.h"
#include "workloads/tree_search.h"

namespace lbb {
namespace {

struct SearchCapture final : StepSink {
  std::vector<StepRecord> records;
  void on_step(const StepRecord& r) override { records.push_back(r); }
};

// A metric of a level record by name (workload metrics first, then the executor's).
double metric(const TreeSearch& w, const StepRecord& r, const std::string& name) {
  std::vector<std::string> names;
  for (const auto& m : w.level_metrics()) names.push_back(m.name);
  for (const auto& m : level_executor_metrics()) names.push_back(m.name);
  const auto it = std::find(names.begin(), names.end(), name);
  EXPECT_NE(it, names.end()) << name;
  return r.metrics.at(it - names.begin());
}

struct Strategy {
  const char* label;
  const char* balancer;  // empty: none
  InStepSchedule schedule;
};

const Strategy kStrategies[] = {
    {"none", "", InStepSchedule::kAssigned},
    {"tree_mesh", "tree_mesh", InStepSchedule::kAssigned},
    {"list_scheduling", "list_scheduling", InStepSchedule::kAssigned},
    {"decreasing_fit", "decreasing_fit", InStepSchedule::kAssigned},
    {"omp_static", "", InStepSchedule::kOmpStatic},
    {"omp_dynamic", "", InStepSchedule::kOmpDynamic},
    {"omp_guided", "", InStepSchedule::kOmpGuided},
    {"omp_tasks", "", InStepSchedule::kOmpTasks},
};

LevelResult run_tree(TreeSearch& w, const Strategy& s, int processors, SearchCapture& sink,
                     TopologyKind kind = TopologyKind::kMesh2d) {
  Topology topology(kind, processors);
  std::unique_ptr<Balancer> balancer;
  if (*s.balancer) balancer = make_balancer(s.balancer, Params{});
  LevelPlan plan;
  plan.processors = processors;
  plan.topology = &topology;
  plan.speed.assign(processors, 1.0);
  plan.balancer = balancer.get();
  plan.schedule = s.schedule;
  plan.chunk = 2;
  return LevelExecutor().run(w, plan, sink);
}

// The published counts under every strategy and processor count: the tree is the same whoever
// expands it.
TEST(TreeSearch, PublishedCountsUnderEveryStrategyAndProcessorCount) {
  // Geometric, binomial and hybrid trees on 2 to 4 threads (3: a 1 x 3 mesh). Few threads:
  // under a loaded machine OpenMP's spinning at each level's barriers dominates these tiny trees.
  for (const char* name : {"default", "test-t3", "test-t4"}) {
    const kernels::UtsSampleTree* tree = kernels::find_uts_sample_tree(name);
    ASSERT_NE(tree, nullptr);
    for (const Strategy& s : kStrategies)
      for (int processors : {2, 3, 4}) {
        TreeSearch w(tree->params, 4, 0.3, 0, 0);
        SearchCapture sink;
        const LevelResult x = run_tree(w, s, processors, sink);
        const kernels::UtsCounts c = w.counts();
        SCOPED_TRACE(std::string(name) + " " + s.label + " P=" + std::to_string(processors));
        EXPECT_EQ(c.nodes, tree->counts.nodes);
        EXPECT_EQ(c.leaves, tree->counts.leaves);
        if (tree->counts.depth >= 0) {
          EXPECT_EQ(c.depth, tree->counts.depth);
        }
        EXPECT_EQ(x.levels, c.depth + 1);
        ASSERT_EQ(static_cast<int>(sink.records.size()), x.levels);
        const Verification v = w.verify();
        EXPECT_TRUE(v.passed) << v.detail;
        double nodes = 0;
        for (const auto& r : sink.records) nodes += metric(w, r, "nodes");
        EXPECT_EQ(nodes, static_cast<double>(tree->counts.nodes));
      }
  }
}

TEST(TreeSearch, TreeMeshKeepsEveryLevelWithinItsCommunicationLimit) {
  // C_max = sum E_a / N (= LB with unit speeds): no task may run farther than t_a, so the
  // communication term of T_i never exceeds C_max, level after level.
  for (int processors : {4, 8, 16}) {
    TreeSearch w(kernels::find_uts_sample_tree("small-t5")->params, 2, 0.4, 0, 0);
    SearchCapture sink;
    const LevelResult x = run_tree(w, kStrategies[1], processors, sink);
    EXPECT_GT(x.migrations, 0);
    for (const auto& r : sink.records)
      EXPECT_LE(metric(w, r, "comm_model"), metric(w, r, "lb_model") * (1 + 1e-12))
          << "level " << r.step << " P " << processors;
  }
  // decreasing_fit has no such limit: on the same tree it does exceed C_max somewhere.
  TreeSearch w3(kernels::find_uts_sample_tree("small-t5")->params, 2, 0.4, 0, 0);
  SearchCapture sink3;
  run_tree(w3, kStrategies[3], 16, sink3);
  bool over = false;
  for (const auto& r : sink3.records)
    over |= metric(w3, r, "comm_model") > metric(w3, r, "lb_model") * (1 + 1e-12);
  EXPECT_TRUE(over);
}

TEST(TreeSearch, EmulatedSpeedsAreHonoured) {
  // Processor 1 runs at a quarter speed: tree_mesh splits halves by speed, so the two
  // processors' busy times of the large levels stay within a factor 2 (equal shares of the work
  // would make processor 1 about 4 times busier). No external load here: its levels follow
  // wall-clock intervals, which a loaded host makes different in every run. Granularity 40
  // (SHA-1 evaluations per child) makes the levels' CPU times large against clock noise.
  kernels::UtsParams tree = kernels::find_uts_sample_tree("small-t5")->params;
  tree.granularity = 40;
  TreeSearch w(tree, 4, 0.3, 0, 0);
  Topology mesh(TopologyKind::kMesh2d, 2);
  auto balancer = make_balancer("tree_mesh", Params{});
  LevelPlan plan;
  plan.processors = 2;
  plan.topology = &mesh;
  plan.speed = {1.0, 0.25};
  plan.balancer = balancer.get();
  SearchCapture sink;
  LevelExecutor().run(w, plan, sink);
  EXPECT_TRUE(w.verify().passed);
  double busy0 = 0, busy1 = 0;
  for (const auto& r : sink.records)
    if (metric(w, r, "tasks") >= 20) {
      busy0 += r.busy[0];
      busy1 += r.busy[1];
    }
  ASSERT_GT(busy0, 0);
  EXPECT_LT(busy1 / busy0, 2.0);
  EXPECT_GT(busy1 / busy0, 0.5);
}

TEST(TreeSearch, ExternalLoadIsAppliedAndRecorded) {
  TreeSearch w(kernels::find_uts_sample_tree("small-t5")->params, 4, 0.3, 0, 0);
  Topology mesh(TopologyKind::kMesh2d, 2);
  auto balancer = make_balancer("tree_mesh", Params{});
  LevelPlan plan;
  plan.processors = 2;
  plan.topology = &mesh;
  plan.speed = {1.0, 1.0};
  plan.external_load = ExternalLoad{{0.5, 0.5}, 0.01, 3};
  plan.balancer = balancer.get();
  SearchCapture sink;
  LevelExecutor().run(w, plan, sink);
  EXPECT_TRUE(w.verify().passed);
  double max_load = 0;
  for (const auto& r : sink.records) {
    ASSERT_EQ(r.external_load.size(), 2u);
    max_load = std::max({max_load, r.external_load[0], r.external_load[1]});
  }
  EXPECT_GT(max_load, 0);
  EXPECT_LE(max_load, 0.5);
}

TEST(TreeSearch, LevelRecordsAreConsistent) {
  TreeSearch w(kernels::find_uts_sample_tree("small-t1")->params, 8, 0.3, 0, 0);
  SearchCapture sink;
  run_tree(w, kStrategies[1], 4, sink);
  ASSERT_EQ(sink.records.size(), 6u);
  for (const auto& r : sink.records) {
    ASSERT_EQ(r.busy.size(), 4u);
    double max = 0;
    for (int p = 0; p < 4; ++p) {
      EXPECT_GE(r.busy[p], 0);
      EXPECT_GE(r.idle[p], -1e-12);
      max = std::max(max, r.busy[p] + r.proc_balance[p] + r.proc_migration[p]);
    }
    EXPECT_NEAR(r.makespan, max + r.serial, 1e-12);
    EXPECT_LE(r.ideal, r.makespan + 1e-12);
    EXPECT_GE(metric(w, r, "t_model"), metric(w, r, "lb_model") - 1e-9);
    EXPECT_GE(metric(w, r, "tasks"), 1);
  }
  EXPECT_EQ(metric(w, sink.records[0], "tasks"), 1);  // the root
}

TEST(TreeSearch, TasksAreBatchesOfOneLevelsDigests) {
  TreeSearch w(kernels::UtsParams{}, 3, 0.5, 0.01, 2.0);
  std::vector<TaskState> roots = w.start(2);
  ASSERT_EQ(roots.size(), 1u);
  const kernels::UtsDigest root = kernels::uts_root_digest(0);
  const int children = kernels::uts_child_count(kernels::UtsParams{}, root, 0);
  EXPECT_EQ(w.predicted_cost(roots[0]), 1.0 + children);  // a visit plus one SHA-1 per child
  EXPECT_DOUBLE_EQ(w.hop_cost(roots[0], 10.0),
                   0.5 * 10.0 + 0.01 * static_cast<double>(roots[0].size()) + 2.0);
  std::vector<std::byte> out;
  w.run_task(0, 1, roots[0], out);
  ASSERT_EQ(out.size(), static_cast<std::size_t>(children) * kernels::kUtsDigestBytes);
  kernels::UtsDigest first;
  std::memcpy(first.data(), out.data(), first.size());
  EXPECT_EQ(first, kernels::uts_child_digest(root, 0));
  std::vector<TaskState> next;
  w.cut_tasks(0, out, next);
  EXPECT_EQ(static_cast<int>(next.size()), (children + 2) / 3);  // batches of at most 3
  std::size_t total = 0;
  for (const auto& t : next) total += t.size();
  EXPECT_EQ(total, out.size() + next.size() * 8);                    // 8-byte header each
  EXPECT_THROW(w.run_task(0, 0, next[0], out), std::runtime_error);  // a level-1 task
}

TEST(TreeSearch, RefusesInfiniteTreesAndStaticPartitions) {
  kernels::UtsParams infinite;
  infinite.type = kernels::UtsTreeType::kBinomial;
  infinite.non_leaf_prob = 0.5;
  infinite.non_leaf_children = 2;
  EXPECT_THROW(TreeSearch(infinite, 4, 0.3, 0, 0), std::invalid_argument);

  const std::string path = ::testing::TempDir() + "/tree_bad.yaml";
  std::ofstream(path) << "workload: { kind: tree_search, t: 0, q: 0.5, m: 2 }\n"
                         "platform: { processors: 2 }\n"
                         "balancers: [ { dynamic: tree_mesh } ]\n";
  EXPECT_THROW(load_config(path), ConfigError);
  std::ofstream(path) << "workload: { kind: tree_search }\n"
                         "platform: { processors: 2 }\n"
                         "balancers: [ { static: block } ]\n";
  EXPECT_THROW(load_config(path), ConfigError);
  std::ofstream(path) << "workload: { kind: block_substitution }\n"
                         "platform: { processors: 2 }\n"
                         "balancers: [ { schedule: omp_tasks, chunk: 2 } ]\n";
  EXPECT_THROW(load_config(path), ConfigError);
  std::ofstream(path) << "workload: { kind: tree_search, t: 1, a: 3, d: 10, b: 4, r: 19 }\n"
                         "platform: { processors: [2, 4], topology: mesh2d }\n"
                         "balancers: [ { dynamic: tree_mesh }, { schedule: omp_dynamic, "
                         "chunk: [1, 4] } ]\n";
  const Config ok = load_config(path);
  ASSERT_EQ(ok.runs.size(), 6u);
  EXPECT_EQ(ok.runs[1].balancer.schedule_name, "omp_dynamic");
  EXPECT_EQ(ok.runs[1].balancer.schedule_params.integer("chunk"), 1);
  EXPECT_EQ(ok.runs[2].balancer.label, "omp_dynamic(chunk=4)");
}

}  // namespace
}  // namespace lbb
