#pragma once

namespace lbb {

// How modules relate, which decides what a partition may look like.
enum class ModuleStructure {
  kChain,        // module i talks to i-1 and i+1 (contiguous partitions make sense)
  kSpatial,      // modules have coordinates (recursive bisection makes sense)
  kIndependent,  // no structure worth preserving
};

}  // namespace lbb
