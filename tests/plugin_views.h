#pragma once
// Load views for the user-balancer tests (plugin_balancer_test, python_balancer_test): random
// loads with ties, and where the example balancers' files were built or stand.
#include <cstdlib>
#include <random>
#include <string>

#include "balancers/balancer.h"
#include "balancers/load_snapshot.h"

namespace lbb::testing {

inline std::string plugin_path(const std::string& name) {
  const char* dir = std::getenv("LBB_BUILD_DIR");
  return std::string(dir ? dir : "build") + "/plugins/lib" + name + ".so";
}

inline std::string source_path(const std::string& relative) {
  const char* dir = std::getenv("LBB_SOURCE_DIR");
  return std::string(dir ? dir : ".") + "/" + relative;
}

// Random loads with ties (costs on a coarse grid), a few speeds (or all equal) and random owners.
inline LoadSnapshot random_loads(std::mt19937_64& rng, int processors, int modules) {
  LoadSnapshot s;
  std::uniform_int_distribution<int> grid(1, 12), proc(0, processors - 1);
  const double speeds[] = {0.5, 1.0, 1.0, 1.5};
  const bool mixed = rng() % 2;
  for (int p = 0; p < processors; ++p) s.speed.push_back(mixed ? speeds[rng() % 4] : 1.0);
  for (int m = 0; m < modules; ++m) {
    s.cost.push_back(grid(rng) * 0.25 + (rng() % 4 == 0 ? 1e-3 * grid(rng) : 0.0));
    s.bytes.push_back(64);
    s.owner.push_back(proc(rng));
  }
  s.step = 3;
  return s;
}

inline std::vector<int> owners_after(const Decision& d, const LoadSnapshot& s) {
  return d.act ? d.owner : s.owner;
}

}  // namespace lbb::testing
