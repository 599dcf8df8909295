#pragma once
// A graph partitioner numbers its parts as it likes; between steps that numbering would move
// every module. The parts are renumbered so that each goes to a processor of its speed (the size
// the partitioner gave it) holding most of its modules, the largest overlaps matched first.
#include <span>

#include "core/assignment.h"

namespace lbb {

// part[m] in [0, P) on entry, a processor after; owner: the modules' processors now.
void keep_parts_in_place(Owners& part, std::span<const int> owner, std::span<const double> speed);

}  // namespace lbb
