#pragma once
// What the ranks of an asynchronous run (harness/mpi/mpi_async_executor.h) tell each other about
// its modules, and the order a rank applies it in. Every rank keeps every module's step count and
// owner (its replica of the predictive balancer's state); a notice changes them. Messages from
// one rank arrive in the order it sent them, but those from different ranks in any order: a
// notice waits until the replica is where its sender's was when it sent it.
#include <cstddef>
#include <cstdint>
#include <list>
#include <span>
#include <vector>

#include "core/module_graph.h"

namespace lbb {

struct Notice {
  enum Kind : std::int32_t { kStep, kTake };
  Kind kind = kStep;
  // kStep: processor `from` ran step `step` of `module`. kTake: `module`, which had finished
  // `step` steps, went from processor `from` to `to`.
  std::int32_t module = 0, step = 0, from = 0, to = 0;
  double end = 0;  // kStep: the step's modelled end; kTake: the taker's clock when it asked
  double cpu = 0;  // kStep: the step's CPU seconds; kTake: unused
  std::vector<std::byte> bytes;  // kStep: the workload's outputs of the step; a grant: the state
};

std::vector<std::byte> encode(const Notice& notice);
// Throws std::runtime_error for a message too short for its header.
Notice decode(std::span<const std::byte> message);

// Whether a rank whose replica holds `step` (steps finished per module) and `owner` may apply
// the notice now. A step: the module has finished the steps before it, its sender owns it, and
// every module it depends on has finished the step before (the data it read). A take: the module
// has finished the steps it had when it moved and is still the giver's.
bool notice_ready(const Notice& notice, const ModuleGraph& graph, std::span<const int> step,
                  std::span<const int> owner);

// The notices that arrived before their turn, applied as soon as it comes.
class NoticeOrder {
 public:
  explicit NoticeOrder(const ModuleGraph& graph) : graph_(graph) {}

  // Holds the notice, then applies every held one that is ready (apply(notice) changes the
  // replica that `step` and `owner` view), oldest first, until none is. Returns how many.
  template <class Apply>
  int arrive(Notice notice, std::span<const int> step, std::span<const int> owner, Apply apply) {
    held_.push_back(std::move(notice));
    int applied = 0;
    for (bool progress = true; progress;) {
      progress = false;
      for (auto it = held_.begin(); it != held_.end();)
        if (notice_ready(*it, graph_, step, owner)) {
          apply(*it);
          it = held_.erase(it);
          ++applied;
          progress = true;
        } else {
          ++it;
        }
    }
    return applied;
  }
  std::size_t held() const { return held_.size(); }

 private:
  const ModuleGraph& graph_;
  std::list<Notice> held_;
};

}  // namespace lbb
