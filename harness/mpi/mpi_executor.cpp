#include "harness/mpi/mpi_executor.h"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>

#include "balancers/between_steps/parts/decision_scope.h"
#include "harness/base/clock.h"
#include "harness/base/process_world.h"
#include "harness/exec/chunk_dispenser.h"
#include "harness/exec/emulated_run.h"
#include "harness/exec/schedule_loop.h"
#include "harness/exec/step_protocol.h"
#include "harness/exec/team.h"
#include "harness/mpi/rank_exchange.h"
#include "harness/mpi/scoped_decision.h"
#include "harness/mpi/timeline_clock.h"

namespace lbb {

namespace {

using Figures = MpiExecutor::Figures;

// One line a figure, in MpiExecutor::Figure order: the step metrics' names and meanings.
constexpr std::pair<const char*, const char*> kFigureDocs[] = {
    {"exchange_bytes",
     "bytes of the workload's outputs (and states, where finish_step reads them) sent to other "
     "ranks in the step"},
    {"exchange_seconds", "s, wall: the slowest rank's exchanges, waiting for the others excluded"},
    {"remote_migrations", "module states sent to another rank (one MPI message each)"},
    {"remote_bytes", "bytes of the states sent to another rank"},
    {"remote_seconds", "s, wall: the slowest rank's sends and receives of states"},
    {"local_migrations", "module states copied within a rank"},
    {"local_bytes", "bytes of the states copied within a rank"},
    {"local_seconds", "s, CPU: the slowest processor's copies within its rank"},
    {"balance_messages",
     "messages of the decisions, all ranks together: the busy times to rank 0 and its owners "
     "back (centralised), the busy times all to all (GDDLB), or each rank's loads to the ranks "
     "whose processors' scopes read them, or the load sums up Horton's bisection tree and the "
     "inherited transfers down it, then its transfers or owners to every other rank (scoped; "
     "docs/engine.md); a collective counts each rank's part to each other rank"},
    {"balance_bytes", "bytes of those messages"},
    {"remote_runs",
     "module runs (one per module and phase) on a thread other than the one holding the "
     "module's state, all ranks together"},
};
static_assert(std::size(kFigureDocs) == MpiExecutor::kFigures);

// Per processor, the fields of ProcessorTimes that the ranks sum (each rank fills its own).
constexpr int kProcFields = 7;
constexpr int kPhaseFields = 8;

// The step protocol's machine of MPI ranks, each running its processors on a team of threads:
// one agent a rank, whose meeting after a phase is an exchange of the workload's outputs and the
// measured costs (then every rank takes the same steps); a decision is every rank's, each rank's
// part on its scope, or rank 0's sent to the others; a state crosses ranks as a message.
// A run's error that every rank throws at the same point of the protocol (a decision or a
// partition failed on some rank, and the others were told): no rank waits in a collective, so the
// job goes on to its next run instead of ending (MpiExecutor::run).
struct EveryRankError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The leader's message of `length` characters on every rank, thrown there.
[[noreturn]] void throw_on_every_rank(const std::string& message, std::size_t length) {
  std::vector<int> text(message.begin(), message.end());
  text.resize(length);
  from_leader(text);
  throw EveryRankError(std::string(text.begin(), text.end()));
}

// This rank's error (empty: none) in a step every rank takes: where any rank failed, every rank
// throws the first failing rank's message.
void fail_together(const std::string& failure) {
  const ProcessWorld& world = process_world();
  int first = failure.empty() ? world.size : world.rank;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == world.size) return;
  int length = static_cast<int>(failure.size());
  MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD);
  std::string text = failure;
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, first, MPI_COMM_WORLD);
  throw EveryRankError(first == 0 ? text : "rank " + std::to_string(first) + ": " + text);
}

class RankMachine final : public StepMachine {
 public:
  RankMachine(ProtocolState& state, ModuleStore& store, const RankLayout& ranks, Figures& totals,
              const std::optional<ScheduleChoice>& schedule);

  void run(const std::function<void(int)>& body) override;
  bool place(int) override;
  void run_phase(int, int s, int ph) override;
  bool meet(int, int s, int ph, const std::function<void()>& f) override;
  std::vector<double> finish_step(int s) override;
  int measure_view(int s, int ph, std::vector<double>& busy) override;
  std::optional<Decision> decide(int ph, Balancer& balancer, const LoadView& view) override;
  bool move(int, int ph, std::span<const int> moved, const std::function<void()>& then) override;
  StepEnd end_step(int s) override;
  void finish_record(StepRecord& rec) override;
  void end_run(ExecutionResult& result) override;
  // Every rank partitioned: a partitioner's error on any fails the run on all.
  void agree(std::span<const int> owner, const std::string& failure) const override {
    fail_together(failure);
    if (!same_on_every_rank(owner)) throw EveryRankError("the ranks' initial partitions differ");
  }

 private:
  void run_scheduled_phase(int s, int ph);
  double run_scheduled(int m, int s, int ph, int p, LoadTally& tally);
  void share_runners(int ph);
  void gather_busy(std::vector<double>& busy, bool to_every_rank);
  // Every rank decides alike on the whole view: a redundant balancer, or a user's that declares
  // it (scope kAll, decided by one thread within a rank).
  bool every_rank(int ph) const {
    return st_.phase[ph].redundant || scope_[ph] == DecisionScope::kAll;
  }
  bool scoped(int ph) const {
    return decides_per_processor(scope_[ph]) || scope_[ph] == DecisionScope::kGroup ||
           scope_[ph] == DecisionScope::kTree;
  }

  ProtocolState& st_;
  ModuleStore& store_;
  const RankLayout ranks_;
  Figures& totals_;
  const PlatformEmulation emulation_;
  Team team_;  // this rank's threads
  const bool cpu_costs_;
  Figures step_{};
  double serial_ = 0, step_start_ = 0, epoch_ = 0, placement_ = 0;
  struct {
    int s = 0, ph = 0;
  } step_ph_;  // the step and phase last run: what the timeline's spans between phases belong to
  // Per phase, how its balancer decides: read once, at the start, since a balancer that changes
  // its mind later (`dynamic: auto` choosing a distributed scheme) would do so on the deciding
  // rank alone.
  std::vector<DecisionScope> scope_;
  // Under an in-step schedule: the rank's modules per phase (its processors' lists, in order),
  // the technique's hand-out among the rank's threads, and who ran each (phase, module).
  const std::optional<ScheduleChoice> schedule_;
  std::unique_ptr<ChunkDispenser> chunks_;
  std::vector<std::vector<int>> pool_;
  std::vector<int> runner_;
};

// Every rank's measured spans on every rank, in rank order (each rank's processors' own).
std::vector<TimelineSpan> gather_spans(std::vector<TimelineSpan> mine, const RankLayout& ranks) {
  for (TimelineSpan& s : mine) s.rank = static_cast<std::int16_t>(ranks.rank);
  std::vector<std::size_t> offset;
  const std::vector<std::byte> all =
      allgather_bytes(std::as_bytes(std::span(mine)), ranks.ranks, offset);
  std::vector<TimelineSpan> out(all.size() / sizeof(TimelineSpan));
  std::memcpy(out.data(), all.data(), out.size() * sizeof(TimelineSpan));
  return out;
}

// Threads outnumber the cores of this rank, or all ranks on this host together outnumber its
// cores: module costs on the thread CPU clock (as the bsp executor's).
bool threads_outnumber_cores(int threads) {
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  int on_host = 1;
  MPI_Comm_size(local, &on_host);
  MPI_Comm_free(&local);
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return threads > omp_get_num_procs() || on_host * threads > cores;
}

RankMachine::RankMachine(ProtocolState& state, ModuleStore& store, const RankLayout& ranks,
                         Figures& totals, const std::optional<ScheduleChoice>& schedule)
    : st_(state),
      store_(store),
      ranks_(ranks),
      totals_(totals),
      emulation_(state.plan.speed, state.plan.external_load, wall_now()),
      team_(ranks.threads, emulation_),
      cpu_costs_(threads_outnumber_cores(ranks.threads)),
      schedule_(schedule) {
  if (schedule_ && schedule_->kind == InStepSchedule::kChunked)
    chunks_ = std::make_unique<ChunkDispenser>(
        schedule_->technique, schedule_->params,
        std::span(st_.plan.speed).subspan(ranks.first(), ranks.threads));
  if (schedule_) runner_.assign(static_cast<std::size_t>(st_.phases) * st_.M, -1);
  for (const PhasePlan& phase : st_.phase) {
    Balancer* b = phase.balancer;
    // A processor decides on its scope only where the balancer plans in units processor by
    // processor; any other scope is all-ranks (redundant) or the leader's.
    const bool unit_plan = dynamic_cast<UnitPlanBalancer*>(b) != nullptr;
    scope_.push_back(b ? b->scope() : DecisionScope::kLeader);
    if (!unit_plan && decides_per_processor(scope_.back()))
      throw std::logic_error("a balancer decided per processor plans no units");
  }
}

void RankMachine::run(const std::function<void(int)>& body) {
  if (st_.timeline.on()) st_.timeline.set_base(aligned_time_base());
  MPI_Barrier(MPI_COMM_WORLD);
  epoch_ = wall_now();  // the ranks' common origin of start and end times
  body(0);
}

bool RankMachine::place(int) {
  const double c0 = thread_cpu_now();
  team_.run([&](int t) {
    team_.guard([&] {
      for (int m : st_.phase[0].lists[ranks_.first() + t]) store_.place(m);
    });
  });
  placement_ = thread_cpu_now() - c0;
  if (schedule_)
    for (const PhasePlan& phase : st_.phase) {
      std::vector<int>& pool = pool_.emplace_back();
      for (int t = 0; t < ranks_.threads; ++t)
        pool.insert(pool.end(), phase.lists[ranks_.first() + t].begin(),
                    phase.lists[ranks_.first() + t].end());
    }
  return true;
}

// This rank's threads run their processors' modules; costs on the thread CPU clock where threads
// outnumber cores, else the wall clock (speed emulation included in both).
void RankMachine::run_phase(int, int s, int ph) {
  if (ph == 0) {
    st_.recorder.clear();
    step_ = {};
    step_start_ = wall_now();
  }
  std::vector<double>& cost = st_.phase[ph].cost;
  std::fill(cost.begin(), cost.end(), 0.0);
  if (schedule_) return run_scheduled_phase(s, ph);
  team_.run([&](int t) {
    const int p = ranks_.first() + t;
    ProcessorTimes& me = st_.recorder.processor(p);
    double at = wall_now();
    if (ph == 0) me.start = at - epoch_;
    st_.timeline.resume(p, at);
    double cpu = thread_cpu_now(), busy = 0;
    LoadTally tally;
    team_.guard([&] {
      for (int m : st_.phase[ph].lists[p]) {
        const double end = run_emulated_until_end(
            emulation_, p, tally, [&] { st_.workload.run_module(m, s, ph, store_.state(m)); });
        const double now = cpu_costs_ ? thread_cpu_now() : end;
        cost[m] = now - (cpu_costs_ ? cpu : at);
        busy += cost[m];
        me.busy_wall += end - at;
        st_.timeline.add(p, SpanKind::kModule, s, ph, m, at, end);
        cpu = now;
        at = end;
      }
    });
    me.phase[ph].busy = me.phase[ph].finish = busy;
    me.load.loaded += tally.loaded;
    me.load.unloaded += tally.unloaded;
    if (ph + 1 == st_.phases) me.end = at - epoch_;
    st_.timeline.idle_from(p, at, s, ph);
  });
  step_ph_ = {s, ph};
}

// Under the schedule: the rank's threads take its modules as the schedule hands them out
// (omp_tasks: each spawns its own processor's, any thread runs them), each module timed by the
// thread that ran it; a thread's busy time is its CPU time in the loop, the hand-out's included.
void RankMachine::run_scheduled_phase(int s, int ph) {
  const std::vector<int>& pool = pool_[ph];
  const bool tasks = schedule_->kind == InStepSchedule::kOmpTasks;
  if (chunks_) chunks_->start(static_cast<int>(pool.size()), wall_now());
  team_.run([&](int t) {
    const int p = ranks_.first() + t;
    ProcessorTimes& me = st_.recorder.processor(p);
    const double w0 = wall_now(), c0 = thread_cpu_now(), before = me.phase[ph].busy;
    if (ph == 0) me.start = w0 - epoch_;
    st_.timeline.resume(p, w0);
    st_.timeline.idle_from(p, w0, s, ph);  // unless it runs a module
    LoadTally tally;
    if (tasks) {
      for (int m : st_.phase[ph].lists[p]) {
#pragma omp task firstprivate(m)
        {
          const int q = ranks_.first() + omp_get_thread_num();
          ProcessorTimes& runner = st_.recorder.processor(q);
          const double tc = thread_cpu_now();
          LoadTally own;
          run_scheduled(m, s, ph, q, own);
          runner.phase[ph].busy += thread_cpu_now() - tc;
          runner.load.loaded += own.loaded;
          runner.load.unloaded += own.unloaded;
        }
      }
    } else if (chunks_) {
      take_chunks(*chunks_, t, [&](int i) { return run_scheduled(pool[i], s, ph, p, tally); });
    } else {
      scheduled_loop(schedule_->kind, schedule_->chunk, static_cast<int>(pool.size()),
                     [&](int i) { run_scheduled(pool[i], s, ph, p, tally); });
    }
    // Its CPU time here, tasks run here meanwhile (undeferred) included; tasks it runs later,
    // in the region's closing barrier, add their own.
    me.phase[ph].busy = before + thread_cpu_now() - c0;
    me.load.loaded += tally.loaded;
    me.load.unloaded += tally.unloaded;
    if (ph + 1 == st_.phases) me.end = std::max(me.end, wall_now() - epoch_);
  });
  for (int t = 0; t < ranks_.threads; ++t) {
    PhaseTimes& x = st_.recorder.processor(ranks_.first() + t).phase[ph];
    x.finish = x.busy;
  }
  const auto runners = std::span(runner_).subspan(static_cast<std::size_t>(ph) * st_.M, st_.M);
  for (int m : pool) step_[MpiExecutor::kRemoteRuns] += runners[m] != st_.phase[ph].owner[m];
  step_ph_ = {s, ph};
}

// Module m's phase ph of step s on processor p: its cost on p's clock, its runner and span; its
// wall seconds. Never throws (OpenMP constructs must not be left by an exception).
double RankMachine::run_scheduled(int m, int s, int ph, int p, LoadTally& tally) {
  double wall = 0;
  team_.guard([&] {
    ProcessorTimes& me = st_.recorder.processor(p);
    const double w0 = wall_now(), c0 = cpu_costs_ ? thread_cpu_now() : 0.0;
    const double end = run_emulated_until_end(
        emulation_, p, tally, [&] { st_.workload.run_module(m, s, ph, store_.state(m)); });
    wall = end - w0;
    st_.phase[ph].cost[m] = cpu_costs_ ? thread_cpu_now() - c0 : wall;
    runner_[static_cast<std::size_t>(ph) * st_.M + m] = p;
    me.busy_wall += wall;
    if (ph + 1 == st_.phases) me.end = std::max(me.end, end - epoch_);
    st_.timeline.add(p, SpanKind::kModule, s, ph, m, w0, end);
    st_.timeline.idle_from(p, end, s, ph);
  });
  return wall;
}

// Who ran each module of phase ph, on every rank (what the record's owners say under a schedule).
void RankMachine::share_runners(int ph) {
  const auto runners = std::span(runner_).subspan(static_cast<std::size_t>(ph) * st_.M, st_.M);
  for (int m = 0; m < st_.M; ++m)
    if (!ranks_.mine(st_.phase[ph].owner[m])) runners[m] = -1;
  MPI_Allreduce(MPI_IN_PLACE, runners.data(), st_.M, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}

// The workload's outputs, then the costs: every rank then holds what every module did.
bool RankMachine::meet(int, int s, int ph, const std::function<void()>& f) {
  PhasePlan& b = st_.phase[ph];
  MPI_Barrier(MPI_COMM_WORLD);  // the wait for the slowest rank is idle time, not exchange
  const double w0 = wall_now();
  const Traffic t = exchange_outputs(st_.workload, ranks_, b.owner, s, ph);
  step_[MpiExecutor::kExchangeBytes] += static_cast<double>(t.bytes);
  sum_over_ranks(b.cost);
  step_[MpiExecutor::kExchangeSeconds] += wall_now() - w0;
  if (schedule_ && st_.plan.record_modules) share_runners(ph);
  if (!st_.seen_is_cost)
    for (int m = 0; m < st_.M; ++m) b.seen[m] = b.cost[m] * st_.plan.speed[b.owner[m]];
  f();
  return true;
}

// The workload's serial end of step, on every rank: with every state first where it reads them.
std::vector<double> RankMachine::finish_step(int s) {
  const bool needs_states = st_.workload.finish_step_reads_states();
  if (needs_states) {
    const double w0 = wall_now();
    step_[MpiExecutor::kExchangeBytes] +=
        static_cast<double>(share_states(store_, ranks_, st_.where).bytes);
    step_[MpiExecutor::kExchangeSeconds] += wall_now() - w0;
  }
  const double c0 = thread_cpu_now(), w0 = st_.timeline.on() ? wall_now() : 0.0;
  st_.workload.finish_step(s, store_);
  serial_ = thread_cpu_now() - c0;
  if (st_.timeline.on())  // the rank's agent runs it: on its first processor's track
    st_.timeline.add(ranks_.first(), SpanKind::kSerial, s, st_.phases - 1, -1, w0, wall_now());
  if (needs_states) {
    for (int m = 0; m < st_.M; ++m) st_.bytes[m] = store_.bytes(m);
    drop_replicas(store_, ranks_, st_.where);
  }
  return st_.workload.step_metric_values(s);
}

// A group's busy times go to its deciders alone, and a processor's transfers or a cut read none.
int RankMachine::measure_view(int s, int ph, std::vector<double>& busy) {
  if (!scoped(ph)) gather_busy(busy, every_rank(ph));
  return s;
}

// A distributed scheme of all processors decides on every rank from the shared costs; one whose
// processors or groups read only their scope decides each rank's part on it (scoped_decision.h);
// a centralised one decides on rank 0, which sends the new owners to the others. The decider's
// CPU time is every processor's wait (each rank's own, when each decides its part).
std::optional<Decision> RankMachine::decide(int ph, Balancer& b, const LoadView& view) {
  const bool redundant = every_rank(ph), is_scoped = scoped(ph);
  const double w0 = wall_now(), c0 = thread_cpu_now();
  Decision d;
  std::vector<double> figures(4, 0.0);  // act (-length: the leader's error), cpu, before, after
  std::string failure;
  if (is_scoped) {
    const auto busy = view.busy.subspan(ranks_.first(), ranks_.threads);
    ScopedDecision sd =
        scope_[ph] == DecisionScope::kGroup ? decide_in_groups(b, view, busy, ranks_)
        : scope_[ph] == DecisionScope::kTree
            ? decide_by_levels(dynamic_cast<MultilevelDiffusion&>(b), view, ranks_)
            : decide_on_scope(dynamic_cast<UnitPlanBalancer&>(b), scope_[ph], view, ranks_);
    d = std::move(sd.decision);
    step_[MpiExecutor::kBalanceMessages] += static_cast<double>(sd.traffic.messages);
    step_[MpiExecutor::kBalanceBytes] += static_cast<double>(sd.traffic.bytes);
  } else if (redundant || ranks_.rank == 0) {
    failure = decision_error(b, view, d);
  }
  if (is_scoped || redundant || ranks_.rank == 0) {
    figures = {d.act ? 1.0 : 0.0, thread_cpu_now() - c0, d.predicted_before, d.predicted_after};
    // The rank's agent decided (the other ranks' wait for rank 0's owners is a wait).
    if (st_.timeline.on())
      st_.timeline.add(ranks_.first(), SpanKind::kDecision, step_ph_.s, ph, -1, w0, wall_now());
  }
  if (redundant && !is_scoped) fail_together(failure);  // after its CPU time: it may wait
  if (!failure.empty()) figures[0] = -static_cast<double>(failure.size());
  if (!redundant && !is_scoped) {
    from_leader(figures);
    if (figures[0] < 0) throw_on_every_rank(failure, static_cast<std::size_t>(-figures[0]));
    if (figures[0] != 0) {
      d.owner.resize(st_.M);
      from_leader(d.owner);
    }
    d.act = figures[0] != 0;
    if (ranks_.rank == 0) {  // the ranks' figures are summed (end_step)
      step_[MpiExecutor::kBalanceMessages] += ranks_.ranks - 1;
      step_[MpiExecutor::kBalanceBytes] += (ranks_.ranks - 1) * (figures.size() * sizeof(double) +
                                                                 (d.act ? st_.M * sizeof(int) : 0));
    }
  } else if (!same_on_every_rank(d.act ? d.owner : std::vector<int>{})) {
    throw EveryRankError(
        "the balancer decided differently on two ranks (its decide is not "
        "deterministic, or reads what differs between ranks)");
  }
  for (int p = ranks_.first(); p < ranks_.first() + ranks_.threads; ++p) {
    st_.recorder.processor(p).phase[ph].end_balance = figures[1];
    st_.recorder.processor(p).phase[ph].end_balance_wall = wall_now() - w0;
  }
  d.predicted_before = figures[2];
  d.predicted_after = figures[3];
  return d;
}

// The processors' busy times (Zaki et al.'s load function reads them) as the scheme's pattern
// collects its loads: all to all for a distributed one, all to one (rank 0) for a centralised one;
// counted as the decision's messages, each rank its own sends (end_step sums them).
void RankMachine::gather_busy(std::vector<double>& busy, bool to_every_rank) {
  const double part = static_cast<double>(ranks_.threads * sizeof(double));
  const auto mine = std::span(busy).subspan(ranks_.first(), ranks_.threads);
  if (to_every_rank) {
    sum_over_ranks(busy);
    step_[MpiExecutor::kBalanceMessages] += ranks_.ranks - 1;
    step_[MpiExecutor::kBalanceBytes] += (ranks_.ranks - 1) * part;
    return;
  }
  std::vector<std::vector<double>> to(ranks_.ranks);
  std::vector<int> counts(ranks_.ranks, 0);
  if (ranks_.rank != 0) {
    to[0].assign(mine.begin(), mine.end());
    step_[MpiExecutor::kBalanceMessages] += 1;
    step_[MpiExecutor::kBalanceBytes] += part;
  } else {
    std::fill(counts.begin() + 1, counts.end(), ranks_.threads);
  }
  const auto received = send_receive(to, counts);
  for (int r = 1; r < ranks_.ranks && ranks_.rank == 0; ++r)
    std::copy(received[r].begin(), received[r].end(), busy.begin() + r * ranks_.threads);
}

// Each state goes to its owner in the next phase: across ranks as a message, within a rank as a
// copy by the receiving processor's thread (first touch, as on one node).
bool RankMachine::move(int, int ph, std::span<const int> moved, const std::function<void()>& then) {
  const std::vector<int>& next = st_.phase[(ph + 1) % st_.phases].owner;
  const double w0 = wall_now();
  const Traffic remote = move_states(store_, ranks_, moved, st_.where, next, st_.bytes);
  const double remote_wall = wall_now() - w0;
  if (remote.messages > 0 && st_.timeline.on())  // the agent's sends and receives
    st_.timeline.add(ranks_.first(), SpanKind::kMigration, step_ph_.s, ph, -1, w0,
                     w0 + remote_wall);
  step_[MpiExecutor::kRemoteSeconds] = std::max(step_[MpiExecutor::kRemoteSeconds], remote_wall);
  step_[MpiExecutor::kRemoteMigrations] += static_cast<double>(remote.messages);
  step_[MpiExecutor::kRemoteBytes] += static_cast<double>(remote.bytes);
  double local_seconds = 0;
  team_.run([&](int t) {
    const int p = ranks_.first() + t;
    ProcessorTimes& me = st_.recorder.processor(p);
    const double c0 = thread_cpu_now(), cw = st_.timeline.on() ? wall_now() : 0.0;
    std::int64_t copied = me.migrated;
    team_.guard([&] {
      for (int m : moved) {
        if (next[m] != p) continue;
        ++me.migrated;
        me.bytes += static_cast<std::int64_t>(st_.bytes[m]);
        if (ranks_.mine(st_.where[m])) store_.migrate(m);  // else it arrived in move_states
      }
    });
    me.phase[ph].end_migration = thread_cpu_now() - c0 + remote_wall;
    if (me.migrated > copied && st_.timeline.on())
      st_.timeline.add(p, SpanKind::kMigration, step_ph_.s, ph, -1, cw, wall_now());
#pragma omp critical
    local_seconds = std::max(local_seconds, thread_cpu_now() - c0);
  });
  for (int m : moved)
    if (ranks_.rank_of(st_.where[m]) == ranks_.rank_of(next[m])) {
      step_[MpiExecutor::kLocalMigrations] += 1;
      step_[MpiExecutor::kLocalBytes] += static_cast<double>(st_.bytes[m]);
    }
  step_[MpiExecutor::kLocalSeconds] = std::max(step_[MpiExecutor::kLocalSeconds], local_seconds);
  then();  // the protocol's: every moved state's holder is its owner now
  for (int m = 0; m < st_.M; ++m)
    if (store_.holds(m) != ranks_.mine(st_.where[m]))
      throw std::logic_error("module " + std::to_string(m) + "'s state is not on its owner's rank");
  return true;
}

// Every rank sums the processors' times (each filled its own) and closes the same record.
RankMachine::StepEnd RankMachine::end_step(int) {
  const int phases = st_.phases;
  std::vector<double> v(static_cast<std::size_t>(st_.P) * (kProcFields + kPhaseFields * phases));
  auto fields = [&](int p, auto visit) {
    ProcessorTimes& t = st_.recorder.processor(p);
    double migrated = static_cast<double>(t.migrated), bytes = static_cast<double>(t.bytes);
    double* at = v.data() + static_cast<std::size_t>(p) * (kProcFields + kPhaseFields * phases);
    for (double* f :
         {&t.start, &t.end, &t.busy_wall, &t.load.loaded, &t.load.unloaded, &migrated, &bytes})
      visit(*f, *at++);
    for (PhaseTimes& x : t.phase)
      for (double* f : {&x.busy, &x.finish, &x.balance, &x.migration, &x.end_balance,
                        &x.end_migration, &x.balance_wall, &x.end_balance_wall})
        visit(*f, *at++);
    t.migrated = static_cast<std::int64_t>(migrated);
    t.bytes = static_cast<std::int64_t>(bytes);
  };
  for (int p = 0; p < st_.P; ++p)
    fields(p, [&](double& f, double& slot) { slot = ranks_.mine(p) ? f : 0.0; });
  sum_over_ranks(v);
  for (int p = 0; p < st_.P; ++p) fields(p, [](double& f, double& slot) { f = slot; });
  // Messages of a decision and remote runs: every rank's; the other figures: the slowest or
  // busiest rank's.
  sum_over_ranks(std::span(step_).subspan(MpiExecutor::kBalanceMessages, 3));
  max_over_ranks(step_);
  return {serial_ + step_[MpiExecutor::kExchangeSeconds], wall_now() - step_start_};
}

void RankMachine::finish_record(StepRecord& rec) {
  if (rec.step < 0) return;  // figures of the recorded steps, as the run's migrations_total
  for (int f = 0; f < MpiExecutor::kFigures; ++f) totals_[f] += step_[f];
  rec.metrics.insert(rec.metrics.end(), step_.begin(), step_.begin() + MpiExecutor::kRemoteRuns);
  if (!schedule_) return;
  if (chunks_ && chunks_->selected() >= 0) rec.metrics.push_back(chunks_->selected());
  rec.metrics.push_back(step_[MpiExecutor::kRemoteRuns]);
  if (rec.module_owner.empty()) return;  // modules not recorded
  rec.module_owner.assign(runner_.begin(), runner_.begin() + st_.M);
  if (st_.phases > 1) rec.phase_module_owner = runner_;
}

// The result, gathered on every rank: verification reads every module's state.
void RankMachine::end_run(ExecutionResult& result) {
  if (st_.timeline.on()) result.spans = gather_spans(std::move(result.spans), ranks_);
  share_states(store_, ranks_, st_.where);
  if (!store_.complete()) throw std::logic_error("a module lost its state");
  result.placement = placement_;
}

}  // namespace

MpiExecutor::MpiExecutor(ScheduleChoice schedule) : schedule_(std::move(schedule)) {
  if (schedule_->kind == InStepSchedule::kAssigned)
    throw std::invalid_argument("mpi executor: no schedule given");
  if (schedule_->chunk < 1) throw std::invalid_argument("mpi executor: chunk must be >= 1");
}

ExecutionResult MpiExecutor::run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                                 StepSink& sink) {
  if (schedule_ && (plan.initial || plan.dynamic || !plan.later_phase_dynamic.empty()))
    throw std::invalid_argument("mpi executor: a schedule takes no balancer");
  const ProcessWorld& world = process_world();
  ranks_ = world.size;
  if (plan.processors % world.size != 0)
    throw std::invalid_argument(std::to_string(plan.processors) + " processors do not split over " +
                                std::to_string(world.size) +
                                " ranks: make platform.processors a "
                                "multiple of the ranks (threads per rank = processors / ranks)");
  threads_ = plan.processors / world.size;
  const RankLayout ranks{world.rank, world.size, threads_};
  std::vector<std::span<std::byte>> probe;
  if (!workload.phase_outputs(0, 0, 0, probe))
    throw std::invalid_argument(
        "this workload does not run across MPI ranks (it names no outputs "
        "to exchange): run it without mpirun");
  totals_ = {};
  // Its errors are every rank's.
  ProtocolState state(workload, plan, {.models_seen = false, .in_step = false});
  RankMachine machine(state, store, ranks, totals_, schedule_);
  StepProtocol protocol(state, machine, sink);
  try {
    ExecutionResult x = protocol.run();
    x.ranks = rank_placement(ranks);  // who ran where, for the leader's record
    return x;
  } catch (const EveryRankError&) {
    throw;  // every rank fails this run alike: the job goes on
  } catch (const std::exception& e) {
    // The other ranks wait in a collective this rank will never join: end the job.
    std::cerr << "lbbench: rank " << world.rank << ": " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 3);
    throw;
  }
}

// Under a schedule, auto4omp's choice (rank 0's: each rank chooses for its threads) and remote_runs
// after the figures, as finish_record appends them.
std::vector<StepMetric> MpiExecutor::metrics() const {
  std::vector<StepMetric> out;
  for (int f = 0; f < kRemoteRuns; ++f)
    out.push_back({kFigureDocs[f].first, kFigureDocs[f].second});
  if (!schedule_) return out;
  if (schedule_->kind == InStepSchedule::kChunked &&
      schedule_->technique == LoopTechnique::kAuto4OMP)
    out.push_back(schedule_choice_metric());
  out.push_back({kFigureDocs[kRemoteRuns].first, kFigureDocs[kRemoteRuns].second});
  return out;
}

std::vector<WorkloadAttribute> MpiExecutor::attributes() const {
  std::vector<WorkloadAttribute> out{{"mpi_ranks", static_cast<double>(ranks_)},
                                     {"mpi_threads_per_rank", static_cast<double>(threads_)}};
  for (int f = 0; f < kRemoteRuns; ++f)
    out.push_back({std::string(kFigureDocs[f].first) + "_total", totals_[f]});
  if (schedule_) out.push_back({"remote_runs", totals_[kRemoteRuns]});  // as self_scheduled's
  return out;
}

}  // namespace lbb
