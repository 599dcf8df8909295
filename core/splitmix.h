#pragma once
// SplitMix64 (Steele, Lea & Flood 2014): a reproducible, independent draw per key, whatever order
// the keys are asked in (per processor, step or interval).
#include <cstdint>

namespace lbb {

inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace lbb
