// Barnes-Hut against direct summation on a Plummer cluster: the speed of one full force
// evaluation (tree build + walk for every body vs. the O(N^2) sum, timed in the same run by the
// thread's CPU clock, which preemption on a shared machine does not inflate) and the relative
// force error of the tree at several opening parameters.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include "harness/clock.h"
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

// Args: bodies, dimensions. One iteration times both methods on every body.
void BM_BarnesHutVsDirect(benchmark::State& state) {
  const Cluster c(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  const int n = c.size();
  BodyTree tree;
  double tree_s = 0, direct_s = 0, checksum = 0, interactions = 0;
  for (auto _ : state) {
    double t0 = lbb::thread_cpu_now();
    lbb::kernels::build_tree(c.dims, c.pos, c.mass, c.ids, 0.5, 8, tree);
    for (int k = 0; k < n; ++k) {
      const int i = tree.order[k];
      const auto f = lbb::kernels::tree_force(tree, &c.pos[i * c.dims], c.ids[i], kEps);
      checksum += f.acc[0];
      interactions += static_cast<double>(f.interactions);
    }
    tree_s += lbb::thread_cpu_now() - t0;
    t0 = lbb::thread_cpu_now();
    for (int k = 0; k < n; ++k) {
      const int i = tree.order[k];
      checksum += lbb::kernels::direct_force(tree, &c.pos[i * c.dims], k, kEps).acc[0];
    }
    direct_s += lbb::thread_cpu_now() - t0;
    benchmark::DoNotOptimize(checksum);
  }
  const double it = static_cast<double>(state.iterations());
  state.counters["tree_cpu_s"] = tree_s / it;
  state.counters["direct_cpu_s"] = direct_s / it;
  state.counters["speedup"] = direct_s / tree_s;
  state.counters["interactions_per_body"] = interactions / it / n;
}
BENCHMARK(BM_BarnesHutVsDirect)
    ->Args({10000, 2})
    ->Args({10000, 3})
    ->Args({100000, 2})
    ->Args({100000, 3})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

// Args: theta x 100, dimensions. Relative force error |a_tree - a_direct| / |a_direct| over
// 1000 sampled bodies of a 20000-body cluster; the time is that of the tree walks.
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
  double sum_sq = 0, worst = 0;
  for (auto _ : state) {
    sum_sq = 0, worst = 0;
    for (std::size_t s = 0; s < sample.size(); ++s) {
      const int i = sample[s];
      const auto f = lbb::kernels::tree_force(tree, &c.pos[i * c.dims], c.ids[i], kEps);
      double e2 = 0, r2 = 0;
      for (int d = 0; d < 3; ++d) {
        e2 += (f.acc[d] - direct[s * 3 + d]) * (f.acc[d] - direct[s * 3 + d]);
        r2 += direct[s * 3 + d] * direct[s * 3 + d];
      }
      sum_sq += e2 / r2;
      worst = std::max(worst, std::sqrt(e2 / r2));
    }
  }
  state.counters["rms_rel_error"] = std::sqrt(sum_sq / sample.size());
  state.counters["max_rel_error"] = worst;
}
BENCHMARK(BM_BarnesHutForceError)
    ->ArgsProduct({{30, 50, 70, 100}, {2, 3}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
