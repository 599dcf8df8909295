#include "harness/mpi/mpi_async_executor.h"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>

#include "harness/base/clock.h"
#include "harness/base/process_world.h"
#include "harness/exec/async_executor.h"
#include "harness/exec/async_records.h"
#include "harness/exec/async_run.h"
#include "harness/exec/team.h"

namespace lbb {

namespace {

using RankFigures = MpiAsyncExecutor::Figures;

// One line a figure, in RankAgent::Figure order: the step metrics' names and meanings.
constexpr std::pair<const char*, const char*> kRankAgentFigureDocs[] = {
    {"remote_takes",
     "modules the predictive balancer took from a processor of another rank: a request, then "
     "the state in one MPI message"},
    {"remote_take_bytes", "bytes of the states those takes sent"},
    {"remote_take_seconds",
     "s, wall: from each such request to the state's arrival on the taker's rank, summed"},
    {"local_takes", "modules taken from a processor of the same rank (a copy, as in one process)"},
    {"takes_refused",
     "requests for a module of another rank refused: the module was running, moving, or no "
     "longer the giver's"},
    {"notice_messages",
     "messages telling another rank of a finished module step (with the step's outputs) or of a "
     "module's new owner, each message to each rank"},
    {"notice_bytes", "bytes of those messages"},
};
static_assert(std::size(kRankAgentFigureDocs) == RankAgent::kFigures);

// The doubles every rank gives, ranks in order; rank r's start at offset[r].
std::vector<double> from_every_rank(const std::vector<double>& mine, int ranks,
                                    std::vector<std::size_t>& offset) {
  const std::vector<std::byte> all = allgather_bytes(std::as_bytes(std::span(mine)), ranks, offset);
  for (std::size_t& o : offset) o /= sizeof(double);
  std::vector<double> out(all.size() / sizeof(double));
  if (!all.empty()) std::memcpy(out.data(), all.data(), all.size());
  return out;
}

// What the other ranks' processors recorded (clock spans, idle time, emulated load) and the takes
// they made, so that every rank builds the same step records.
void share_processors(AsyncRun& run, KernelWork& work, const RankLayout& ranks) {
  std::vector<double> mine, takes;
  for (int p = ranks.first(); p < ranks.first() + ranks.threads; ++p) {
    const std::vector<ClockSpan>& spans = run.spans(p);
    mine.insert(mine.end(), {static_cast<double>(spans.size()), run.idle_wall(p),
                             work.load(p).loaded, work.load(p).unloaded});
    for (const ClockSpan& s : spans)
      mine.insert(mine.end(), {static_cast<double>(s.kind), s.start, s.end});
  }
  for (const ModuleTakeRecord& t : run.takes())
    takes.insert(takes.end(), {t.when, static_cast<double>(t.bytes)});
  std::vector<std::size_t> at, take_at;
  const std::vector<double> all = from_every_rank(mine, ranks.ranks, at);
  const std::vector<double> all_takes = from_every_rank(takes, ranks.ranks, take_at);
  for (int r = 0; r < ranks.ranks; ++r) {
    if (r == ranks.rank) continue;
    std::size_t k = at[r];
    for (int p = r * ranks.threads; p < (r + 1) * ranks.threads; ++p) {
      std::vector<ClockSpan> spans(static_cast<std::size_t>(all.at(k)));
      const double idle = all.at(k + 1);
      work.adopt_load(p, {all.at(k + 2), all.at(k + 3)});
      k += 4;
      for (ClockSpan& s : spans) {
        s = {static_cast<ClockSpan::Kind>(all.at(k)), all.at(k + 1), all.at(k + 2)};
        k += 3;
      }
      run.adopt_processor(p, std::move(spans), idle);
    }
    std::vector<ModuleTakeRecord> theirs;
    for (std::size_t j = take_at[r]; j < take_at[r + 1]; j += 2)
      theirs.push_back({all_takes[j], static_cast<std::uint64_t>(all_takes[j + 1])});
    run.add_takes(theirs);
  }
}

// Every rank's counts, summed per step: an event belongs to the step whose stretch of the
// modelled clock holds its moment (as a take's in the async records).
std::vector<RankFigures> figures_per_step(const AsyncRun& run,
                                          const std::vector<RankAgent::Event>& events, int ranks) {
  std::vector<double> mine;
  for (const RankAgent::Event& e : events)
    mine.insert(mine.end(), {e.when, 1.0 * e.figure, e.value});
  std::vector<std::size_t> offset;
  const std::vector<double> all = from_every_rank(mine, ranks, offset);
  const std::vector<double>& end = run.step_end();
  std::vector<RankFigures> out(end.size(), RankFigures{});
  for (std::size_t j = 0; j + 2 < all.size(); j += 3) {
    const auto k = std::min<std::size_t>(
        std::lower_bound(end.begin(), end.end(), all[j]) - end.begin(), end.size() - 1);
    out[k][static_cast<int>(all[j + 1])] += all[j + 2];
  }
  return out;
}

struct RankRun {
  ExecutionResult result;
  AsyncFigures figures;
  RankFigures totals{};
  double idle_wall = 0;
};

// This rank's part of the run: worker threads 1..T run processors first()..first()+T-1, thread
// 0 (the master, which alone calls MPI) is the agent. Then the records, the same on every rank.
RankRun run_on_ranks(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                     StepSink& sink, const ModuleGraph& graph, const RankLayout& ranks) {
  RankRun out;
  const AsyncStart start = start_async(workload, plan, graph, out.result);
  if (!same_on_every_rank(start.owner))
    throw std::logic_error("the ranks' initial partitions differ");
  const int P = plan.processors, total = plan.warmup + plan.steps;
  const double run_start = wall_now();
  const PlatformEmulation emulation(plan.speed, plan.external_load, run_start);
  Team team(ranks.threads + 1, emulation);
  KernelWork work(workload, store, emulation, P);
  AsyncRun run(work, graph, P, start.owner, total, start.predictive, AsyncOrder::kArrival);
  RankAgent agent(run, graph, workload, store, ranks, total);
  run.span_processes(agent);
  MPI_Barrier(MPI_COMM_WORLD);
  double placed_at = 0;
  team.run([&](int t) {
    const int p = ranks.first() + t - 1;
    if (t > 0)
      team.guard([&] {
        for (int m = 0; m < graph.modules(); ++m)
          if (start.owner[m] == p) store.place(m);  // first touch by the owner
      });
    if (!team.single([&] { placed_at = wall_now(); })) return;
    if (t == 0)
      agent.serve();
    else
      run.processor(p);
  });
  run.rethrow_if_failed();
  share_processors(run, work, ranks);
  const std::vector<RankFigures> per_step = figures_per_step(run, agent.events(), ranks.ranks);
  out.figures = record_async_run(run, plan, placed_at, sink, out.result, [&](int s, StepRecord& r) {
    r.metrics.insert(r.metrics.end(), per_step[s].begin(), per_step[s].end());
    for (int f = 0; f < RankAgent::kFigures; ++f) out.totals[f] += per_step[s][f];
  });
  for (int p = 0; p < P; ++p) out.idle_wall += run.idle_wall(p);
  for (int m = 0; m < graph.modules(); ++m)
    if (store.holds(m) != ranks.mine(run.owner()[m]))
      throw std::logic_error("module " + std::to_string(m) + "'s state is not on its owner's rank");
  // Verification reads every module's state: gathered on every rank, as the mpi executor does.
  share_states(store, ranks, run.owner());
  if (!store.complete()) throw std::logic_error("a module lost its state");
  out.result.run_wall = wall_now() - run_start;
  return out;
}

}  // namespace

ExecutionResult MpiAsyncExecutor::run(Workload& workload, ModuleStore& store,
                                      const ExecutionPlan& plan, StepSink& sink) {
  const ProcessWorld& world = process_world();
  ranks_ = world.size;
  if (plan.processors % world.size != 0 || plan.processors < world.size)
    throw std::invalid_argument(std::to_string(plan.processors) + " processors do not split over " +
                                std::to_string(world.size) +
                                " ranks: make platform.processors a multiple of the ranks "
                                "(threads per rank = processors / ranks)");
  threads_ = plan.processors / world.size;
  const RankLayout ranks{world.rank, world.size, threads_};
  const ModuleGraph graph = async_dependencies(workload, plan);
  std::vector<std::span<std::byte>> probe;
  if (!workload.phase_outputs(0, 0, 0, probe))
    throw std::invalid_argument(
        "this workload does not run across MPI ranks (it names no outputs to send): run it "
        "without mpirun");
  try {
    RankRun r = run_on_ranks(workload, store, plan, sink, graph, ranks);
    totals_ = r.totals;
    utilization_ = r.figures.utilization;
    moves_per_step_ = r.figures.moves_per_step;
    idle_wall_ = r.idle_wall;
    r.result.ranks = rank_placement(ranks);  // who ran where, for the leader's record
    return std::move(r.result);
  } catch (const std::exception& e) {
    // The other ranks wait for messages or a collective this rank will never send: end the job.
    std::cerr << "lbbench: rank " << world.rank << ": " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 3);
    throw;
  }
}

std::vector<StepMetric> MpiAsyncExecutor::metrics() const {
  std::vector<StepMetric> out = async_metrics();
  for (const auto& [name, doc] : kRankAgentFigureDocs) out.push_back({name, doc});
  return out;
}

std::vector<WorkloadAttribute> MpiAsyncExecutor::attributes() const {
  std::vector<WorkloadAttribute> out{{"utilization", utilization_},
                                     {"modules_moved_per_step", moves_per_step_},
                                     {"idle_wall_total", idle_wall_},
                                     {"mpi_ranks", static_cast<double>(ranks_)},
                                     {"mpi_threads_per_rank", static_cast<double>(threads_)}};
  for (int f = 0; f < RankAgent::kFigures; ++f)
    out.push_back({std::string(kRankAgentFigureDocs[f].first) + "_total", totals_[f]});
  return out;
}

}  // namespace lbb
