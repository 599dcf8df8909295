#pragma once
// The executors' check that OpenMP really gave them one thread per processor.
#include <omp.h>

#include <optional>
#include <string>

namespace lbb {

// Called inside a parallel region: empty when the team has `processors` threads, else why not.
inline std::optional<std::string> team_size_error(int processors) {
  const int got = omp_get_num_threads();
  if (got == processors) return std::nullopt;
  return "OpenMP gave " + std::to_string(got) + " threads, not " + std::to_string(processors) +
         " (check OMP_THREAD_LIMIT / OMP_DYNAMIC)";
}

}  // namespace lbb
