#include "harness/cli/left_out.h"

#include <iostream>

#include "core/text.h"
#include "harness/results/result_reader.h"

namespace lbb {

std::size_t print_left_out(const ResultReader& reader, std::size_t from) {
  const auto& problems = reader.problems();
  for (std::size_t k = from; k < problems.size(); ++k)
    std::cerr << "lbbench: left out: " << printable(problems[k]) << "\n";
  return problems.size();
}

}  // namespace lbb
