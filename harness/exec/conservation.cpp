#include "harness/exec/conservation.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/assignment.h"

namespace lbb {

void check_assignment(std::span<const int> owner, int modules, int processors) {
  if (auto err = assignment_error(owner, modules, processors))
    throw std::logic_error("balancer returned an invalid assignment: " + *err);
}

void check_lists(const std::vector<std::vector<int>>& lists, std::span<const int> owner) {
  std::vector<char> seen(owner.size(), 0);
  for (std::size_t q = 0; q < lists.size(); ++q)
    for (int m : lists[q])
      if (seen[m]++ || owner[m] != static_cast<int>(q))
        throw std::logic_error("module " + std::to_string(m) + " is run twice or by a non-owner");
  if (std::find(seen.begin(), seen.end(), 0) != seen.end())
    throw std::logic_error("a module is on no processor's list");
}

}  // namespace lbb
