#pragma once
// The checks that balancing conserved the modules, which every executor makes where a decision
// changes who holds what; a violation throws std::logic_error and fails the run.
#include <span>
#include <vector>

namespace lbb {

// Every module on exactly one processor in range (a decision's assignment).
void check_assignment(std::span<const int> owner, int modules, int processors);

// Every module on exactly one processor's list, and that processor its owner (the lists an
// in-step synchronisation rebuilt).
void check_lists(const std::vector<std::vector<int>>& lists, std::span<const int> owner);

}  // namespace lbb
