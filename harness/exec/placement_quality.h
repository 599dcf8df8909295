#pragma once
// The quality of a run's static placement, as `lbbench partition` prints it: the initial
// partitioner wrapped so that its first decision (phase 0's, on the predicted weights) is
// measured on the workload's communication graph, and reported as the run's figures
// partition_imbalance, partition_edge_cut and partition_communication_volume (the runs table,
// harness/results/result_schema.cpp). Measured here rather than by each executor, so threads,
// MPI ranks and the simulator report it alike, whatever graph their views carry.
#include <memory>
#include <optional>

#include "balancers/balancer.h"
#include "core/partition_quality.h"

namespace lbb {

class PlacementQuality final : public Balancer {
 public:
  PlacementQuality(std::unique_ptr<Balancer> inner, std::optional<ModuleGraph> graph)
      : inner_(std::move(inner)), graph_(std::move(graph)) {}

  Decision decide(const LoadView& view) override;
  bool redundant() const override { return inner_->redundant(); }
  DecisionScope scope() const override { return inner_->scope(); }
  SyncTrigger sync_trigger() const override { return inner_->sync_trigger(); }
  // The partitioner's own figures, then the placement's (none before a decision).
  std::vector<BalancerFigure> figures() const override;

 private:
  std::unique_ptr<Balancer> inner_;
  std::optional<ModuleGraph> graph_;
  std::optional<PartitionQuality> first_;
};

}  // namespace lbb
