#include "harness/mpi/mpi_executor.h"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>

#include "balancers/between_steps/decision_scope.h"
#include "balancers/partition/block.h"
#include "core/assignment.h"
#include "harness/base/clock.h"
#include "harness/base/process_world.h"
#include "harness/exec/conservation.h"
#include "harness/exec/emulated_run.h"
#include "harness/exec/load_view_builder.h"
#include "harness/exec/team.h"
#include "harness/mpi/rank_exchange.h"
#include "harness/mpi/scoped_decision.h"

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
};
static_assert(std::size(kFigureDocs) == MpiExecutor::kFigures);

// Per processor, the fields of ProcessorTimes that the ranks sum (each rank fills its own).
constexpr int kProcFields = 7;
constexpr int kPhaseFields = 8;

class MpiRun {
 public:
  MpiRun(Workload& workload, ModuleStore& store, const ExecutionPlan& plan, StepSink& sink,
         const RankLayout& ranks, Figures& totals);
  ExecutionResult run();

 private:
  void partition();
  void run_phase(int s, int ph);
  void share_measurements(int s, int ph);
  void finish_step(int s);
  void decide(int s, int ph);
  void gather_busy(std::vector<double>& busy, bool to_every_rank);
  void migrate(int ph);
  void close_step();
  Balancer* balancer_of(int ph) const {
    return ph > 0 && !plan_.later_phase_dynamic.empty() ? plan_.later_phase_dynamic[ph - 1]
                                                        : plan_.dynamic;
  }

  Workload& workload_;
  ModuleStore& store_;
  const ExecutionPlan& plan_;
  StepSink& sink_;
  const RankLayout ranks_;
  Figures& totals_;
  const int P_, M_, phases_, total_;
  const double run_start_;
  const PlatformEmulation emulation_;
  Team team_;  // this rank's threads
  StepRecorder recorder_;
  const std::vector<double> coords_;
  const std::optional<ModuleGraph> communication_;
  const LoadViewBuilder views_;
  const bool nominal_differs_, cpu_costs_;
  std::vector<std::uint64_t> bytes_;
  std::vector<std::vector<int>> owner_;
  std::vector<std::vector<std::vector<int>>> lists_;
  std::vector<int> where_;
  std::vector<std::vector<double>> cost_, nominal_;
  ExecutionResult result_;
  StepRecord rec_;
  Figures step_{};
  double serial_ = 0, step_start_ = 0, epoch_ = 0;
  bool changed_ = false;
  // Per phase, whether its balancer decides on every rank: read once, at the start, since a
  // balancer that changes its mind later (`dynamic: auto` choosing a distributed scheme) would do
  // so on the deciding rank alone.
  std::vector<char> redundant_;
  std::vector<DecisionScope> scope_;  // per phase, read once as redundant_
};

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

MpiRun::MpiRun(Workload& workload, ModuleStore& store, const ExecutionPlan& plan, StepSink& sink,
               const RankLayout& ranks, Figures& totals)
    : workload_(workload),
      store_(store),
      plan_(plan),
      sink_(sink),
      ranks_(ranks),
      totals_(totals),
      P_(plan.processors),
      M_(workload.module_count()),
      phases_(workload.phases()),
      total_(plan.warmup + plan.steps),
      run_start_(wall_now()),
      emulation_(plan.speed, plan.external_load, run_start_),
      team_(ranks.threads, emulation_),
      recorder_(plan.speed, workload.phases()),
      coords_(workload.module_coords()),
      communication_(workload.communication()),
      views_(plan.speed, plan.topology, workload.structure(), workload.dimensions(), coords_,
             communication_ ? &*communication_ : nullptr),
      nominal_differs_(
          std::any_of(plan.speed.begin(), plan.speed.end(), [](double v) { return v != 1.0; })),
      cpu_costs_(threads_outnumber_cores(ranks.threads)) {
  bytes_.resize(M_);
  for (int m = 0; m < M_; ++m) bytes_[m] = workload.state_bytes(m);
  cost_.assign(phases_, std::vector<double>(M_, 0.0));
  nominal_.assign(phases_, std::vector<double>(M_, 0.0));
  for (int ph = 0; ph < phases_; ++ph) {
    Balancer* b = balancer_of(ph);
    redundant_.push_back(b && b->redundant() ? 1 : 0);
    // A processor decides on its scope only where the balancer plans in units processor by
    // processor; any other scope is all-ranks (redundant) or the leader's.
    const bool unit_plan = dynamic_cast<UnitPlanBalancer*>(b) != nullptr;
    scope_.push_back(b ? b->scope() : DecisionScope::kLeader);
    if (!unit_plan && decides_per_processor(scope_.back()))
      throw std::logic_error("a balancer decided per processor plans no units");
  }
  partition();
}

// Every rank computes the same initial partition from the same predicted weights.
void MpiRun::partition() {
  owner_.resize(phases_);
  lists_.resize(phases_);
  const double t0 = thread_cpu_now();
  for (int ph = 0; ph < phases_; ++ph) {
    std::vector<double> w =
        phases_ == 1 ? workload_.predicted_weights() : workload_.predicted_phase_weights(ph);
    Decision d;
    if (plan_.initial) d = plan_.initial->decide(views_.view(-1, ViewLoads(w, bytes_)));
    owner_[ph] = d.act ? std::move(d.owner) : block_owners(M_, P_);
    check_assignment(owner_[ph], M_, P_);
    if (!same_on_every_rank(owner_[ph]))
      throw std::logic_error("the ranks' initial partitions differ");
    lists_[ph] = modules_by_processor(owner_[ph], P_);
  }
  result_.initial_partition_seconds = thread_cpu_now() - t0;
  where_ = owner_[0];
}

ExecutionResult MpiRun::run() {
  MPI_Barrier(MPI_COMM_WORLD);
  epoch_ = wall_now();  // the ranks' common origin of start and end times
  const double c0 = thread_cpu_now();
  team_.run([&](int t) {
    team_.guard([&] {
      for (int m : lists_[0][ranks_.first() + t]) store_.place(m);
    });
  });
  result_.placement = thread_cpu_now() - c0;
  for (int s = 0; s < total_; ++s) {
    recorder_.clear();
    step_ = {};
    step_start_ = wall_now();
    for (int ph = 0; ph < phases_; ++ph) {
      run_phase(s, ph);
      share_measurements(s, ph);
      if (ph + 1 == phases_) finish_step(s);
      decide(s, ph);
      migrate(ph);
    }
    close_step();
  }
  // The result, gathered on every rank: verification reads every module's state.
  share_states(store_, ranks_, where_);
  if (!store_.complete()) throw std::logic_error("a module lost its state");
  result_.steps_run = total_;
  result_.work = recorder_.work();
  result_.final_owner = owner_[0];
  result_.final_phase_owner = owner_;
  result_.run_wall = wall_now() - run_start_;
  return std::move(result_);
}

// This rank's threads run their processors' modules; costs on the thread CPU clock where threads
// outnumber cores, else the wall clock (speed emulation included in both).
void MpiRun::run_phase(int s, int ph) {
  std::fill(cost_[ph].begin(), cost_[ph].end(), 0.0);
  team_.run([&](int t) {
    const int p = ranks_.first() + t;
    ProcessorTimes& me = recorder_.processor(p);
    double at = wall_now();
    if (ph == 0) me.start = at - epoch_;
    double cpu = thread_cpu_now(), busy = 0;
    LoadTally tally;
    team_.guard([&] {
      for (int m : lists_[ph][p]) {
        const double end = run_emulated_until_end(
            emulation_, p, tally, [&] { workload_.run_module(m, s, ph, store_.state(m)); });
        const double now = cpu_costs_ ? thread_cpu_now() : end;
        cost_[ph][m] = now - (cpu_costs_ ? cpu : at);
        busy += cost_[ph][m];
        me.busy_wall += end - at;
        cpu = now;
        at = end;
      }
    });
    me.phase[ph].busy = me.phase[ph].finish = busy;
    me.load.loaded += tally.loaded;
    me.load.unloaded += tally.unloaded;
    if (ph + 1 == phases_) me.end = at - epoch_;
  });
}

// The workload's outputs, then the costs: every rank then holds what every module did.
void MpiRun::share_measurements(int s, int ph) {
  MPI_Barrier(MPI_COMM_WORLD);  // the wait for the slowest rank is idle time, not exchange
  const double w0 = wall_now();
  const Traffic t = exchange_outputs(workload_, ranks_, owner_[ph], s, ph);
  step_[MpiExecutor::kExchangeBytes] += static_cast<double>(t.bytes);
  sum_over_ranks(cost_[ph]);
  step_[MpiExecutor::kExchangeSeconds] += wall_now() - w0;
  for (int m = 0; m < M_; ++m) nominal_[ph][m] = cost_[ph][m] * plan_.speed[owner_[ph][m]];
  if (plan_.record_modules && phases_ > 1) {
    rec_.phase_module_cost.resize(static_cast<std::size_t>(phases_) * M_);
    rec_.phase_module_owner.resize(rec_.phase_module_cost.size());
    std::copy(cost_[ph].begin(), cost_[ph].end(), rec_.phase_module_cost.begin() + ph * M_);
    std::copy(owner_[ph].begin(), owner_[ph].end(), rec_.phase_module_owner.begin() + ph * M_);
  }
}

// The workload's serial end of step, on every rank: with every state first where it reads them.
void MpiRun::finish_step(int s) {
  const bool needs_states = workload_.finish_step_reads_states();
  if (needs_states) {
    const double w0 = wall_now();
    step_[MpiExecutor::kExchangeBytes] +=
        static_cast<double>(share_states(store_, ranks_, where_).bytes);
    step_[MpiExecutor::kExchangeSeconds] += wall_now() - w0;
  }
  const double c0 = thread_cpu_now();
  workload_.finish_step(s, store_);
  serial_ = thread_cpu_now() - c0;
  if (needs_states) {
    for (int m = 0; m < M_; ++m) bytes_[m] = store_.bytes(m);
    drop_replicas(store_, ranks_, where_);
  }
  rec_.step = s - plan_.warmup;
  rec_.metrics = workload_.step_metric_values(s);
  if (plan_.record_modules) {
    rec_.module_cost = cost_[0];
    for (int ph = 1; ph < phases_; ++ph)
      for (int m = 0; m < M_; ++m) rec_.module_cost[m] += cost_[ph][m];
    rec_.module_owner = owner_[0];
  }
}

// A distributed scheme of all processors decides on every rank from the shared costs; one whose
// processors or groups read only their scope decides each rank's part on it (scoped_decision.h);
// a centralised one decides on rank 0, which sends the new owners to the others. The decider's
// CPU time is every processor's wait (each rank's own, when each decides its part).
void MpiRun::decide(int s, int ph) {
  Balancer* b = balancer_of(ph);
  if (!b) return;
  const bool redundant = redundant_[ph], per_processor = decides_per_processor(scope_[ph]);
  const bool grouped = scope_[ph] == DecisionScope::kGroup,
             tree = scope_[ph] == DecisionScope::kTree;
  const bool scoped = per_processor || grouped || tree;
  std::vector<double> busy(P_);
  for (int p = 0; p < P_; ++p) busy[p] = recorder_.processor(p).phase[ph].busy;
  // A group's go to its deciders alone, and a processor's transfers or a cut read no busy time.
  if (!scoped) gather_busy(busy, redundant);
  const LoadView view =
      views_.view(s, ViewLoads(nominal_differs_ ? nominal_[ph] : cost_[ph], bytes_)
                         .owners(owner_[ph])
                         .busy_times(busy));
  const double w0 = wall_now(), c0 = thread_cpu_now();
  Decision d;
  std::vector<double> figures(4, 0.0);  // act, cpu, predicted before and after
  if (scoped) {
    ScopedDecision sd =
        grouped ? decide_in_groups(*b, view,
                                   std::span(busy).subspan(ranks_.first(), ranks_.threads), ranks_)
        : tree  ? decide_by_levels(dynamic_cast<MultilevelDiffusion&>(*b), view, ranks_)
                : decide_on_scope(dynamic_cast<UnitPlanBalancer&>(*b), scope_[ph], view, ranks_);
    d = std::move(sd.decision);
    step_[MpiExecutor::kBalanceMessages] += static_cast<double>(sd.traffic.messages);
    step_[MpiExecutor::kBalanceBytes] += static_cast<double>(sd.traffic.bytes);
  } else if (redundant || ranks_.rank == 0) {
    d = b->decide(view);
  }
  if (scoped || redundant || ranks_.rank == 0)
    figures = {d.act ? 1.0 : 0.0, thread_cpu_now() - c0, d.predicted_before, d.predicted_after};
  if (!redundant && !scoped) {
    from_leader(figures);
    if (figures[0] != 0) {
      d.owner.resize(M_);
      from_leader(d.owner);
    }
    d.act = figures[0] != 0;
    if (ranks_.rank == 0) {  // the ranks' figures are summed (close_step)
      step_[MpiExecutor::kBalanceMessages] += ranks_.ranks - 1;
      step_[MpiExecutor::kBalanceBytes] +=
          (ranks_.ranks - 1) * (figures.size() * sizeof(double) + (d.act ? M_ * sizeof(int) : 0));
    }
  } else if (!same_on_every_rank(d.act ? d.owner : std::vector<int>{})) {
    throw std::logic_error("a distributed balancer decided differently on two ranks");
  }
  for (int p = ranks_.first(); p < ranks_.first() + ranks_.threads; ++p) {
    recorder_.processor(p).phase[ph].end_balance = figures[1];
    recorder_.processor(p).phase[ph].end_balance_wall = wall_now() - w0;
  }
  add_predictions(rec_, figures[2], figures[3]);
  if (!d.act) return;
  check_assignment(d.owner, M_, P_);
  owner_[ph] = std::move(d.owner);
  lists_[ph] = modules_by_processor(owner_[ph], P_);
  changed_ = true;
}

// The processors' busy times (Zaki et al.'s load function reads them) as the scheme's pattern
// collects its loads: all to all for a distributed one, all to one (rank 0) for a centralised one;
// counted as the decision's messages, each rank its own sends (close_step sums them).
void MpiRun::gather_busy(std::vector<double>& busy, bool to_every_rank) {
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
void MpiRun::migrate(int ph) {
  const int next = (ph + 1) % phases_;
  std::vector<int> moved;
  if (phases_ > 1 || changed_)
    for (int m = 0; m < M_; ++m)
      if (owner_[next][m] != where_[m]) moved.push_back(m);
  changed_ = false;
  if (moved.empty()) return;
  const double w0 = wall_now();
  const Traffic remote = move_states(store_, ranks_, moved, where_, owner_[next], bytes_);
  const double remote_wall = wall_now() - w0;
  step_[MpiExecutor::kRemoteSeconds] = std::max(step_[MpiExecutor::kRemoteSeconds], remote_wall);
  step_[MpiExecutor::kRemoteMigrations] += static_cast<double>(remote.messages);
  step_[MpiExecutor::kRemoteBytes] += static_cast<double>(remote.bytes);
  double local_seconds = 0;
  team_.run([&](int t) {
    const int p = ranks_.first() + t;
    ProcessorTimes& me = recorder_.processor(p);
    const double c0 = thread_cpu_now();
    team_.guard([&] {
      for (int m : moved) {
        if (owner_[next][m] != p) continue;
        ++me.migrated;
        me.bytes += static_cast<std::int64_t>(bytes_[m]);
        if (ranks_.mine(where_[m])) store_.migrate(m);  // else it arrived in move_states
      }
    });
    me.phase[ph].end_migration = thread_cpu_now() - c0 + remote_wall;
#pragma omp critical
    local_seconds = std::max(local_seconds, thread_cpu_now() - c0);
  });
  for (int m : moved)
    if (ranks_.rank_of(where_[m]) == ranks_.rank_of(owner_[next][m])) {
      step_[MpiExecutor::kLocalMigrations] += 1;
      step_[MpiExecutor::kLocalBytes] += static_cast<double>(bytes_[m]);
    }
  step_[MpiExecutor::kLocalSeconds] = std::max(step_[MpiExecutor::kLocalSeconds], local_seconds);
  for (int m : moved) where_[m] = owner_[next][m];
  for (int m = 0; m < M_; ++m)
    if (store_.holds(m) != ranks_.mine(where_[m]))
      throw std::logic_error("module " + std::to_string(m) + "'s state is not on its owner's rank");
}

// Every rank sums the processors' times (each filled its own) and closes the same record.
void MpiRun::close_step() {
  std::vector<double> v(static_cast<std::size_t>(P_) * (kProcFields + kPhaseFields * phases_));
  auto fields = [&](int p, auto visit) {
    ProcessorTimes& t = recorder_.processor(p);
    double migrated = static_cast<double>(t.migrated), bytes = static_cast<double>(t.bytes);
    double* at = v.data() + static_cast<std::size_t>(p) * (kProcFields + kPhaseFields * phases_);
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
  for (int p = 0; p < P_; ++p)
    fields(p, [&](double& f, double& slot) { slot = ranks_.mine(p) ? f : 0.0; });
  sum_over_ranks(v);
  for (int p = 0; p < P_; ++p) fields(p, [](double& f, double& slot) { f = slot; });
  // Messages of a decision: every rank's sends; the other figures: the slowest or busiest rank's.
  sum_over_ranks(std::span(step_).subspan(MpiExecutor::kBalanceMessages, 2));
  max_over_ranks(step_);
  recorder_.close(rec_, serial_ + step_[MpiExecutor::kExchangeSeconds], wall_now() - step_start_);
  result_.migrations += rec_.migrations;
  result_.bytes_moved += rec_.bytes_moved;
  if (rec_.step >= 0) {  // figures of the recorded steps, as the run's migrations_total
    for (int f = 0; f < MpiExecutor::kFigures; ++f) totals_[f] += step_[f];
    rec_.metrics.insert(rec_.metrics.end(), step_.begin(), step_.end());
    record_step(sink_, rec_, result_.record_seconds);
  }
  rec_.predicted_before = rec_.predicted_after = StepRecord{}.predicted_before;
}

}  // namespace

ExecutionResult MpiExecutor::run(Workload& workload, ModuleStore& store, const ExecutionPlan& plan,
                                 StepSink& sink) {
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
  placement_ = rank_placement(ranks);  // who ran where, for the leader's record
  MpiRun run(workload, store, plan, sink, ranks, totals_);  // its errors are every rank's
  try {
    return run.run();
  } catch (const std::exception& e) {
    // The other ranks wait in a collective this rank will never join: end the job.
    std::cerr << "lbbench: rank " << world.rank << ": " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, 3);
    throw;
  }
}

std::vector<StepMetric> MpiExecutor::metrics() const {
  std::vector<StepMetric> out;
  for (const auto& [name, doc] : kFigureDocs) out.push_back({name, doc});
  return out;
}

std::vector<WorkloadAttribute> MpiExecutor::attributes() const {
  std::vector<WorkloadAttribute> out{{"mpi_ranks", static_cast<double>(ranks_)},
                                     {"mpi_threads_per_rank", static_cast<double>(threads_)}};
  for (int f = 0; f < kFigures; ++f)
    out.push_back({std::string(kFigureDocs[f].first) + "_total", totals_[f]});
  return out;
}

void MpiExecutor::write_result(RunWriter& writer) const {
  writer.set_text("ranks", placement_);
}

}  // namespace lbb
