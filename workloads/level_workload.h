#pragma once
// A workload whose modules are born level by level (Hwang & Hong 2001, section 3): running the
// tasks of level i creates the tasks of level i+1 on the processor that ran their parent, and
// the level executor generates, balances and runs one level at a time. Like Workload it knows
// nothing of threads or balancers: a processor is only the index of the buffer that receives
// the children of the tasks it ran. A task's state is the bytes a migration copies.
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "workloads/workload.h"

namespace lbb {

using TaskState = std::vector<std::byte>;

class LevelWorkload {
 public:
  virtual ~LevelWorkload() = default;

  // Prepares a run on `processors` processors and returns the states of level 0's tasks, all
  // created on processor 0.
  virtual std::vector<TaskState> start(int processors) = 0;

  // E_a: what running the task will cost, from its state alone (Hwang & Hong assume it known
  // before balancing), in the workload's own units.
  virtual double predicted_cost(std::span<const std::byte> task) const = 0;
  // B_a + M_a: the cost of moving the task one hop and returning its result, in the same units.
  virtual double hop_cost(std::span<const std::byte> task, double predicted) const = 0;

  // Runs one task of `level` on `processor`, appending the children it creates to `children`.
  // Called concurrently for distinct tasks; never twice at once with the same processor.
  virtual void run_task(int level, int processor, std::span<const std::byte> task,
                        std::vector<std::byte>& children) = 0;
  // Cuts the children one processor created during `level` into the states of next-level tasks
  // (appended to `tasks`). Called concurrently for distinct processors.
  virtual void cut_tasks(int level, std::span<const std::byte> children,
                         std::vector<TaskState>& tasks) const = 0;
  // After every task of `level` ran; serial.
  virtual void finish_level(int level) = 0;

  virtual std::vector<StepMetric> level_metrics() const { return {}; }
  // Values of level_metrics() for a finished level, in the same order.
  virtual std::vector<double> level_metric_values(int /*level*/) const { return {}; }

  // The serial reference computation of the whole problem (its steps_run() is 0).
  virtual std::shared_ptr<const SerialReference> reference() const = 0;
  // Compares what the run computed with `reference`, which reference() of this workload or of
  // one with the same parameters computed.
  virtual Verification verify_against(const SerialReference& reference) = 0;
  // Against a reference computed now.
  Verification verify() { return verify_against(*reference()); }
  virtual std::vector<WorkloadAttribute> attributes() const { return {}; }
};

}  // namespace lbb
