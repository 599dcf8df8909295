#pragma once
// What the simulator charges for the work a real machine does besides running modules, the typed
// `execution.sim_*` keys (RunSpec::sim, filled and described in harness/config/config_keys.cpp):
// per migrated module a message latency plus its bytes over the bandwidth; per decision the
// balancer's own CPU time or a modelled constant; the synchronisation and instruction messages of
// Zaki, Li & Parthasarathy 1997's in-step schemes (balancers/in_step/zaki_cost_model.h, at the same
// latency); an optional contention model, a busy processor slowed by 1 + c (n - 1) while n are
// busy; optionally the application's own exchange each step, every processor receiving every
// other's modules (Franklin & Govindan 1995, Fig. 4); and whether steps are bulk-synchronous or
// asynchronous. Replaying a run across MPI ranks, the simulator also knows its ranks: a move across
// ranks is charged at the network's rates, a move within a rank as any copy, and the ranks'
// exchange after each phase and a centralised decision's broadcast (collectives) at rates of their
// own.
#include <cstdint>
#include <string>

namespace lbb {

struct SimSettings {
  double latency = 0;    // s per migrated module
  double bandwidth = 0;  // B/s; 0: bytes are free
  bool measured_decisions = true;
  double decision_seconds = 0;  // a modelled decision
  double contention = 0;        // c
  // Each step, before its modules run, every processor holding modules receives the modules of
  // every other holder: one message per holder plus their bytes (sim_exchange: all).
  bool exchange_all = false;
  // Asynchronous steps (harness/sim/sim_async_run.h): sim_async, or a balancer of role async.
  bool asynchronous = false;
  std::string replay_set, replay_run;
  int replay_processors = 0;  // of the recorded run; 0: the simulation's
  // The recorded run's warm-up steps: a replay starts at its first measured step, and a decision
  // keyed to the step (random's draws) must see the step number the run's saw.
  int replay_first_step = 0;
  // Replay of an mpi run: processors per rank, ids consecutive per rank (harness/mpi/'s
  // RankLayout); 0: one shared memory, every move a copy. `lbbench simulate --calibrate` fits both
  // rates; a latency is the cost per message.
  int rank_threads = 0;
  double network_latency = 0;    // s per module moved across ranks
  double network_bandwidth = 0;  // B/s across ranks; 0: bytes are free
  // The ranks' collectives, the exchange after each phase and a decision's broadcast: s per
  // message (one from, or to, each other rank) and B/s; 0: free.
  double rank_exchange_latency = 0, rank_exchange_bandwidth = 0;

  // Latency per module plus bytes / bandwidth.
  double migration_seconds(std::int64_t modules, double bytes) const {
    return static_cast<double>(modules) * latency + (bandwidth > 0 ? bytes / bandwidth : 0.0);
  }
  // Modules moved across ranks: one latency each plus bytes / bandwidth.
  double network_seconds(double messages, double bytes) const {
    return messages * network_latency + (network_bandwidth > 0 ? bytes / network_bandwidth : 0.0);
  }
  // The ranks' collectives: `messages` exchange latencies plus bytes / exchange bandwidth.
  double rank_exchange_seconds(double messages, double bytes) const {
    return messages * rank_exchange_latency +
           (rank_exchange_bandwidth > 0 ? bytes / rank_exchange_bandwidth : 0.0);
  }
  bool across_ranks(int from, int to) const {
    return rank_threads > 0 && from / rank_threads != to / rank_threads;
  }
  // What a decision that took `cpu` seconds of the balancer's CPU time is charged.
  double decision_charge(double cpu) const { return measured_decisions ? cpu : decision_seconds; }
  // What processor p receiving the exchange pays: `senders` messages and `bytes`.
  double exchange_seconds(int senders, double bytes) const {
    return migration_seconds(senders, bytes);
  }
  // A processor's slowdown while `busy` processors (itself included) are busy.
  double slowdown(int busy) const { return 1.0 + contention * (busy > 1 ? busy - 1 : 0); }
};

}  // namespace lbb
