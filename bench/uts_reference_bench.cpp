// Serial UTS T1 against the UTS reference implementation (Olivier et al. 2006, UTS 2.1), side by
// side in one run. The reference is not part of this project: build its sequential depth-first
// search yourself (e.g. -O3 -march=native) and name the binary in LBB_UTS_REFERENCE; it must
// take UTS's options (-t -a -d -b -r ...) and print "Tree size = N" (on either stream). Each
// repetition times this project's uts_count_serial by the thread's CPU clock and one reference
// process by its CPU time (user + system, from wait4), less the CPU time of a reference run on a
// 254-node tree (process start and exit). vs_reference = reference CPU s / this project's CPU s,
// the ratio of nodes/s. Both run on one core, the one this thread is on.
#include <benchmark/benchmark.h>
#include <sched.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "harness/base/clock.h"
#include "kernels/uts_tree.h"

extern char** environ;

namespace {

using lbb::kernels::UtsSampleTree;

struct ProcessRun {
  bool ok = false;
  std::string output;  // its standard output and error
  double cpu_s = 0;    // user + system
};

ProcessRun run_process(const std::string& binary, const std::string& options) {
  std::vector<std::string> words{binary};
  std::istringstream in(options);
  for (std::string w; in >> w;) words.push_back(w);
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  int out[2];
  ProcessRun run;
  if (pipe(out) != 0) return run;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  char buf[4096];
  for (ssize_t got; (got = read(out[0], buf, sizeof buf)) > 0;) run.output.append(buf, got);
  close(out[0]);
  if (spawned != 0) return run;
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return run;
  run.cpu_s = lbb::seconds_of({usage.ru_utime.tv_sec, usage.ru_utime.tv_usec * 1000}) +
              lbb::seconds_of({usage.ru_stime.tv_sec, usage.ru_stime.tv_usec * 1000});
  run.ok = true;
  return run;
}

// Pins the calling thread, and so the processes it spawns, to the core it is on, until destroyed:
// noise on one core of a shared host then slows ours and the reference alike (unpinned, two
// sittings on one 2-core VM measured the reference at 5.6 and 10 M nodes/s, ours at 30-31 M).
class PinnedToThisCore {
 public:
  PinnedToThisCore() {
    const int cpu = sched_getcpu();
    if (cpu < 0 || sched_getaffinity(0, sizeof was_, &was_) != 0) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pinned_ = sched_setaffinity(0, sizeof one, &one) == 0;
  }
  ~PinnedToThisCore() {
    if (pinned_) sched_setaffinity(0, sizeof was_, &was_);
  }
  PinnedToThisCore(const PinnedToThisCore&) = delete;
  PinnedToThisCore& operator=(const PinnedToThisCore&) = delete;

 private:
  cpu_set_t was_;
  bool pinned_ = false;
};

// The reference's "Tree size = N", or -1.
long long reported_tree_size(const std::string& output) {
  const auto at = output.find("Tree size = ");
  return at == std::string::npos ? -1 : std::atoll(output.c_str() + at + 12);
}

void BM_UtsVsReference(benchmark::State& state) {
  const char* reference = std::getenv("LBB_UTS_REFERENCE");
  if (reference == nullptr || *reference == '\0') {
    state.SkipWithError("set LBB_UTS_REFERENCE to a UTS 2.1 sequential search binary");
    return;
  }
  const UtsSampleTree& tree = *lbb::kernels::find_uts_sample_tree("T1");
  const UtsSampleTree& tiny = *lbb::kernels::find_uts_sample_tree("test-t1");
  state.SetLabel(std::string(tree.name) + " " + lbb::kernels::uts_describe(tree.params));
  double ours_s = 0, reference_s = 0;
  const PinnedToThisCore pin;
  for (auto _ : state) {
    const double t0 = lbb::thread_cpu_now();
    const auto counts = lbb::kernels::uts_count_serial(tree.params);
    ours_s += lbb::thread_cpu_now() - t0;
    const ProcessRun full = run_process(reference, lbb::kernels::uts_describe(tree.params));
    const ProcessRun start = run_process(reference, lbb::kernels::uts_describe(tiny.params));
    if (!(counts == tree.counts)) return state.SkipWithError("T1 counts differ from UTS's");
    if (!full.ok || !start.ok) return state.SkipWithError("the reference binary failed");
    if (reported_tree_size(full.output) != static_cast<long long>(tree.counts.nodes) ||
        reported_tree_size(start.output) != static_cast<long long>(tiny.counts.nodes))
      return state.SkipWithError("the reference reported another tree size");
    reference_s += full.cpu_s - start.cpu_s;
  }
  const double nodes = static_cast<double>(tree.counts.nodes) * state.iterations();
  state.counters["nodes_per_s"] = nodes / ours_s;
  state.counters["reference_nodes_per_s"] = nodes / reference_s;
  state.counters["vs_reference"] = reference_s / ours_s;
}
BENCHMARK(BM_UtsVsReference)
    ->Iterations(1)
    ->Repetitions(7)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);

}  // namespace
