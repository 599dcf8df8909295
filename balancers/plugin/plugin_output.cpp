#include "balancers/plugin/plugin_output.h"

#include <algorithm>

namespace lbb {

namespace {

constexpr int kSentinel = -0x1bb0bad;

}  // namespace

std::vector<int> owner_buffer(std::span<const int> owner) {
  std::vector<int> out(owner.size() + kPluginGuard, kSentinel);
  std::copy(owner.begin(), owner.end(), out.begin());
  return out;
}

std::optional<std::string> owner_problem(std::span<const int> written, std::span<const int> before,
                                         int processors,
                                         std::span<const unsigned char> migratable) {
  const std::size_t m = before.size();
  for (std::size_t i = m; i < written.size(); ++i)
    if (written[i] != kSentinel)
      return "wrote past the " + std::to_string(m) + " owners (at index " + std::to_string(i) +
             "): the decision must hold exactly one owner per module";
  for (std::size_t i = 0; i < m; ++i) {
    const int p = written[i];
    if (p < 0 || p >= processors)
      return "module " + std::to_string(i) + ": owner " + std::to_string(p) +
             " is not a processor (0.." + std::to_string(processors - 1) + ")";
    if (!migratable.empty() && !migratable[i] && p != before[i])
      return "module " + std::to_string(i) + " may not move (migratable: false) but was given " +
             "processor " + std::to_string(p) + " instead of " + std::to_string(before[i]);
  }
  return std::nullopt;
}

std::optional<std::string> wide_owner_problem(std::span<const std::int64_t> given,
                                              std::size_t modules, int processors,
                                              std::vector<int>& owners) {
  if (given.size() != modules)
    return "returned " + std::to_string(given.size()) + " owners for " + std::to_string(modules) +
           " modules: the decision must hold exactly one owner per module";
  owners.assign(modules + kPluginGuard, kSentinel);
  for (std::size_t i = 0; i < modules; ++i) {
    if (given[i] < 0 || given[i] >= processors)
      return "module " + std::to_string(i) + ": owner " + std::to_string(given[i]) +
             " is not a processor (0.." + std::to_string(processors - 1) + ")";
    owners[i] = static_cast<int>(given[i]);
  }
  return std::nullopt;
}

}  // namespace lbb
