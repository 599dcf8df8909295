// The single table of workloads: adding one is one file plus one line here.
#include "workloads/barnes_hut.h"
#include "workloads/block_substitution.h"
#include "workloads/matmul.h"
#include "workloads/synthetic_costs.h"
#include "workloads/task_tree.h"
#include "workloads/tree_search.h"
#include "workloads/trfd.h"
#include "workloads/workload.h"

namespace lbb {

std::span<const WorkloadInfo> workload_registry() {
  // One registration per line keeps additions one-line diffs.
  // clang-format off
  static const std::vector<WorkloadInfo> all = {
      BlockSubstitution::info(),
      BarnesHut::info(),
      Matmul::info(),
      Trfd::info(),
      TreeSearch::info(),
      SyntheticCosts::info(),
      task_tree_info(),
  };
  // clang-format on
  return all;
}

}  // namespace lbb
