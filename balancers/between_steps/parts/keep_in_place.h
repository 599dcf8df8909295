#pragma once
// A graph partitioner numbers its parts as it likes; between steps that numbering would move
// every module. The parts are renumbered so that each goes to a processor of its speed (the size
// the partitioner gave it) holding most of its modules, the largest overlaps matched first.
#include "balancers/balancer.h"
#include "core/assignment.h"

namespace lbb {

// part[m] in [0, P) on entry, a processor after, against the view's owners; unchanged when the
// view has none yet (before the first step nothing sits anywhere).
void keep_parts_in_place(Owners& part, const LoadView& view);

}  // namespace lbb
