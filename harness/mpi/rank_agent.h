#pragma once
// A rank's communication agent in an asynchronous run across MPI ranks
// (harness/mpi/mpi_async_executor.h). The rank's processors run on worker threads and queue
// what the other ranks must learn; the agent, on the rank's master thread (the only one that
// calls MPI: MPI_THREAD_FUNNELED), sends it, receives the other ranks' notices, take requests
// and answers, and applies them to the run under the run's lock. A take from a processor of
// another rank is asked of that rank, which grants it with the module's state (then tells every
// other rank the new owner) or refuses it.
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "core/module_graph.h"
#include "harness/base/module_store.h"
#include "harness/exec/async_run.h"
#include "harness/mpi/async_notices.h"
#include "harness/mpi/rank_exchange.h"
#include "workloads/workload.h"

namespace lbb {

class RankAgent final : public AsyncPeers {
 public:
  // What the agent counts, each at a moment of the modelled clock (kFigureDocs in
  // mpi_async_executor.cpp says what each is).
  enum Figure {
    kRemoteTakes,
    kRemoteBytes,
    kRemoteSeconds,
    kLocalTakes,
    kTakesRefused,
    kNoticeMessages,
    kNoticeBytes,
    kFigures
  };
  struct Event {
    double when;
    int figure;
    double value;
  };

  RankAgent(AsyncRun& run, const ModuleGraph& graph, Workload& workload, ModuleStore& store,
            const RankLayout& ranks, int steps);
  ~RankAgent() override;

  bool here(int processor) const override { return ranks_.mine(processor); }
  void finished(int module, int step, int processor, double end, double cpu) override;
  void took(const ModuleTake& take, int step, double when) override;
  std::optional<MigrationCharge> take_elsewhere(const ModuleTake& take, double when,
                                                std::unique_lock<std::mutex>& lock) override;

  // The master thread: sends, receives and applies until every rank's processors are done, or
  // this run failed (the error kept in the run).
  void serve() noexcept;
  // This rank's counts, in the order they happened.
  const std::vector<Event>& events() const { return events_; }

 private:
  struct Outgoing {
    int rank, tag;
    std::shared_ptr<const std::vector<std::byte>> bytes;
  };
  struct Answer {
    bool asked = false, answered = false;
    std::optional<MigrationCharge> charge;
    double asked_at = 0;  // wall clock
  };
  struct Comm;  // the MPI side, kept out of this header
  void serve_until_every_rank_is_done();
  void queue(int rank, int tag, std::shared_ptr<const std::vector<std::byte>> bytes);
  void to_every_other_rank(const Notice& notice, double when, int except = -1);
  bool asking() const;
  void handle(int source, int tag, std::span<const std::byte> message);
  void apply(Notice& notice);
  void answer_request(const Notice& ask, int source);

  AsyncRun& run_;
  const ModuleGraph& graph_;
  Workload& workload_;
  ModuleStore& store_;
  const RankLayout ranks_;
  const int steps_;
  std::unique_ptr<Comm> comm_;
  NoticeOrder order_;
  // Guarded by the run's lock:
  std::vector<Outgoing> outbox_;
  std::vector<Answer> answer_;  // per processor
  std::vector<Event> events_;
  std::condition_variable answered_;
};

}  // namespace lbb
