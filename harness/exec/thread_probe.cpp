#include "harness/exec/thread_probe.h"

#include <sys/resource.h>

#include <future>
#include <system_error>
#include <thread>
#include <vector>

namespace lbb {

namespace {

std::string limit_text(int resource) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return "unlimited";
  return std::to_string(limit.rlim_cur);
}

}  // namespace

std::optional<std::string> team_start_problem(int threads) {
  std::promise<void> release;
  const std::shared_future<void> released = release.get_future().share();
  std::vector<std::thread> started;
  std::optional<std::string> problem;
  try {
    started.reserve(threads > 1 ? threads - 1 : 0);
    while (static_cast<int>(started.size()) + 1 < threads)
      started.emplace_back([released] { released.wait(); });
  } catch (const std::system_error& e) {
    problem = "cannot start the " + std::to_string(threads) + " threads of a run at " +
              std::to_string(threads) + " processors: thread " +
              std::to_string(started.size() + 2) + " failed (" + e.code().message() +
              "; limits: " + limit_text(RLIMIT_NPROC) + " processes (ulimit -u), " +
              limit_text(RLIMIT_AS) + " bytes of address space (ulimit -v), " +
              limit_text(RLIMIT_STACK) + " bytes of stack a thread (ulimit -s))";
  }
  release.set_value();
  for (auto& t : started) t.join();
  return problem;
}

}  // namespace lbb
