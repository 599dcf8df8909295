// Barnes-Hut against direct summation on a Plummer cluster: the speed of one full force
// evaluation (tree build + walks vs. the O(N^2) sum, timed in the same run by the thread's CPU
// clock, which preemption on a shared machine does not inflate) and the relative force error of
// the tree, walked per body and per group, at several opening parameters.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "harness/base/clock.h"
#include "kernels/barnes_hut.h"
#include "kernels/plummer.h"

namespace {

using lbb::kernels::BodyTree;

constexpr double kEps = 0.05;

struct Cluster {
  int dims;
  std::vector<double> pos, vel, mass;
  std::vector<std::int64_t> ids;
  Cluster(int n, int d) : dims(d), pos(n * d), vel(n * d), mass(n), ids(n) {
    lbb::kernels::plummer_model(d, 1, pos, vel, mass);
    for (int i = 0; i < n; ++i) ids[i] = i;
  }
  int size() const { return static_cast<int>(mass.size()); }
};

constexpr int kGroupSize = lbb::kernels::kTreeGroupSize;  // the workload's

double elapsed_cpu(double& since) {
  const double now = lbb::thread_cpu_now();
  const double dt = now - since;
  since = now;
  return dt;
}

// The rms and largest relative error of forces against the direct sum's, body by body.
struct RelativeError {
  double sum_sq = 0, worst = 0;
  int count = 0;
  void add(const double* acc, const double* direct) {
    double e2 = 0, r2 = 0;
    for (int d = 0; d < 3; ++d) {
      e2 += (acc[d] - direct[d]) * (acc[d] - direct[d]);
      r2 += direct[d] * direct[d];
    }
    sum_sq += e2 / r2;
    worst = std::max(worst, std::sqrt(e2 / r2));
    ++count;
  }
  double rms() const { return std::sqrt(sum_sq / count); }
};

// Args: bodies, dimensions. Each repetition times, by the thread's CPU clock, one full force
// evaluation three ways: the tree built and walked once per group (tree_forces), the tree walked
// once per body (tree_force, what the workload did before it walked per group), and the direct sum
// over all bodies, vectorised with the same arithmetic and instruction set, its sources in
// cache-sized chunks (direct_forces: memory does not slow the anchor). speedup = direct /
// grouped tree; speedup_per_body_walk = direct / per-body tree; *_ns_per_interaction: walk time
// (build included) per body-cell or body-body interaction; rms_rel_error: grouped tree vs direct.
void BM_BarnesHutVsDirect(benchmark::State& state) {
  const Cluster c(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const int n = c.size();
  BodyTree tree;
  std::vector<lbb::kernels::Force> grouped(n), direct(n);
  double group_s = 0, walk_s = 0, direct_s = 0, group_n = 0, walk_n = 0, checksum = 0;
  for (auto _ : state) {
    double t = lbb::thread_cpu_now();
    lbb::kernels::build_tree(c.dims, c.pos, c.mass, c.ids, 0.5, 8, tree);
    lbb::kernels::tree_forces(tree, kEps, kGroupSize, grouped);
    group_s = elapsed_cpu(t);
    lbb::kernels::build_tree(c.dims, c.pos, c.mass, c.ids, 0.5, 8, tree);
    walk_n = 0;
    for (int k = 0; k < n; ++k) {
      const int i = tree.order[k];
      const auto f = lbb::kernels::tree_force(tree, &c.pos[i * c.dims], c.ids[i], kEps);
      checksum += f.acc[0];
      walk_n += static_cast<double>(f.interactions);
    }
    walk_s = elapsed_cpu(t);
    lbb::kernels::direct_forces(tree, kEps, direct);
    direct_s = elapsed_cpu(t);
    benchmark::DoNotOptimize(checksum);
  }
  RelativeError error;
  group_n = 0;
  for (int k = 0; k < n; ++k) {
    error.add(grouped[k].acc, direct[k].acc);
    group_n += static_cast<double>(grouped[k].interactions);
  }
  state.counters["speedup"] = direct_s / group_s;
  state.counters["speedup_per_body_walk"] = direct_s / walk_s;
  state.counters["group_ns_per_interaction"] = group_s / group_n * 1e9;
  state.counters["walk_ns_per_interaction"] = walk_s / walk_n * 1e9;
  state.counters["direct_ns_per_interaction"] = direct_s / (static_cast<double>(n) * n) * 1e9;
  state.counters["group_interactions_per_body"] = group_n / n;
  state.counters["walk_interactions_per_body"] = walk_n / n;
  state.counters["rms_rel_error"] = error.rms();
}
BENCHMARK(BM_BarnesHutVsDirect)
    ->Args({10000, 2})
    ->Args({10000, 3})
    ->Args({100000, 2})
    ->Args({100000, 3})
    ->Iterations(1)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kSecond);

// Args: theta x 100, dimensions. Relative force error |a_tree - a_direct| / |a_direct| over
// 1000 sampled bodies of a 20000-body cluster, walked per body (the time is theirs) and in
// groups (the workload's walk).
void BM_BarnesHutForceError(benchmark::State& state) {
  const double theta = static_cast<double>(state.range(0)) / 100;
  const Cluster c(20000, static_cast<int>(state.range(1)));
  BodyTree tree;
  lbb::kernels::build_tree(c.dims, c.pos, c.mass, c.ids, theta, 8, tree);
  std::vector<int> index(c.size());
  for (int k = 0; k < c.size(); ++k) index[tree.order[k]] = k;
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> pick(0, c.size() - 1);
  std::vector<int> sample(1000);
  for (int& i : sample) i = pick(rng);
  std::vector<double> direct(sample.size() * 3);
  for (std::size_t s = 0; s < sample.size(); ++s) {
    const auto f =
        lbb::kernels::direct_force(tree, &c.pos[sample[s] * c.dims], index[sample[s]], kEps);
    for (int d = 0; d < 3; ++d) direct[s * 3 + d] = f.acc[d];
  }
  RelativeError walk;
  for (auto _ : state) {
    walk = {};
    for (std::size_t s = 0; s < sample.size(); ++s) {
      const int i = sample[s];
      const auto f = lbb::kernels::tree_force(tree, &c.pos[i * c.dims], c.ids[i], kEps);
      walk.add(f.acc, &direct[s * 3]);
    }
  }
  std::vector<lbb::kernels::Force> grouped(c.size());
  lbb::kernels::tree_forces(tree, kEps, kGroupSize, grouped);
  RelativeError group;
  for (std::size_t s = 0; s < sample.size(); ++s)
    group.add(grouped[index[sample[s]]].acc, &direct[s * 3]);
  state.counters["rms_rel_error"] = walk.rms();
  state.counters["max_rel_error"] = walk.worst;
  state.counters["group_rms_rel_error"] = group.rms();
  state.counters["group_max_rel_error"] = group.worst;
}
BENCHMARK(BM_BarnesHutForceError)
    ->ArgsProduct({{30, 50, 70, 100}, {2, 3}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
