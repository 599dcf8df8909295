#pragma once
// Tree search on the Unbalanced Tree Search trees (Olivier et al. 2006), level by level
// (Hwang & Hong 2001, section 3). A task is a batch of up to `batch` nodes of one level created
// by one processor; its state is a small header and the nodes' 20-byte SHA-1 digests. Running a
// task expands every node: it draws the node's number of children from the digest and hashes
// each child's digest (g SHA-1 evaluations per child), so the tasks of the next level are born
// on the processor that ran their parents. Verification: node count, depth and leaf count of the
// run equal those of a serial traversal (and the published counts of the UTS sample trees).
#include <cstdint>
#include <vector>

#include "kernels/uts_tree.h"
#include "workloads/level_workload.h"

namespace lbb {

// The parameters under UTS's option letters (t b r d q m a f g) as a kernels::UtsParams.
kernels::UtsParams uts_params_from(const Params& params);

class TreeSearch final : public LevelWorkload {
 public:
  static WorkloadInfo info();
  explicit TreeSearch(const Params& params);
  TreeSearch(const kernels::UtsParams& tree, int batch, double c_cost, double byte_cost,
             double message_cost);

  std::vector<TaskState> start(int processors) override;
  double predicted_cost(std::span<const std::byte> task) const override;
  double hop_cost(std::span<const std::byte> task, double predicted) const override;
  void run_task(int level, int processor, std::span<const std::byte> task,
                std::vector<std::byte>& children) override;
  void cut_tasks(int level, std::span<const std::byte> children,
                 std::vector<TaskState>& tasks) const override;
  void finish_level(int level) override;
  std::vector<StepMetric> level_metrics() const override;
  std::vector<double> level_metric_values(int level) const override;
  std::shared_ptr<const SerialReference> reference() const override;
  Verification verify_against(const SerialReference& reference) override;
  std::vector<WorkloadAttribute> attributes() const override;

  // What the run has counted so far, over all processors.
  kernels::UtsCounts counts() const;
  const kernels::UtsParams& tree() const { return tree_; }

 private:
  // One processor's counters, on its own cache line.
  struct alignas(64) Tally {
    std::uint64_t nodes = 0, leaves = 0;
    int depth = 0;
  };
  kernels::UtsParams tree_;
  kernels::UtsChildRule rule_;  // the shape rule's per-height constants, computed once
  int batch_;
  double c_cost_, byte_cost_, message_cost_;
  std::vector<Tally> tally_;
  std::vector<double> level_nodes_, level_leaves_;  // per finished level
  std::uint64_t nodes_before_ = 0, leaves_before_ = 0;
};

}  // namespace lbb
