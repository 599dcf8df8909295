#pragma once
// What the ranks of a run send each other, on MPI_COMM_WORLD, always from the thread outside
// OpenMP's parallel regions (MPI_THREAD_FUNNELED). Each helper is collective: every rank calls it
// with the same arguments but its own data, in the same order.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "harness/base/module_store.h"
#include "workloads/workload.h"

namespace lbb {

// Processors p = rank x threads + thread: rank r runs processors [r T, (r + 1) T).
struct RankLayout {
  int rank = 0, ranks = 1, threads = 1;
  int rank_of(int processor) const { return processor / threads; }
  bool mine(int processor) const { return rank_of(processor) == rank; }
  int first() const { return rank * threads; }
};

// Bytes and messages a collective or the moves delivered to other ranks.
struct Traffic {
  std::int64_t bytes = 0, messages = 0;
};

// Every rank's `mine` on every rank, ranks in order; `offset[r]` is where rank r's start.
std::vector<std::byte> allgather_bytes(std::span<const std::byte> mine, int ranks,
                                       std::vector<std::size_t>& offset);

// Where each rank runs, for the leader's record: rank:host:threads, one per rank, in rank order.
std::string rank_placement(const RankLayout& ranks);

// The workload-owned outputs (Workload::phase_outputs) of each rank's modules of the phase,
// copied to every other rank. `owner`: who ran each module in the phase.
Traffic exchange_outputs(Workload& workload, const RankLayout& ranks, std::span<const int> owner,
                         int step, int phase);

// Every module's state on every rank (replicas of the others', for a finish_step that reads
// them); `where`: the processor holding each.
Traffic share_states(ModuleStore& store, const RankLayout& ranks, std::span<const int> where);
// Frees the replicas: keeps only the states of modules `where` puts on this rank.
void drop_replicas(ModuleStore& store, const RankLayout& ranks, std::span<const int> where);

// Sends each module in `moved` whose holder changes rank from `where` to `to` as one message of
// its state's bytes; the receiver adopts it, the sender frees it. Moves within a rank are left to
// the caller. `bytes`: every module's state size, known to every rank.
Traffic move_states(ModuleStore& store, const RankLayout& ranks, std::span<const int> moved,
                    std::span<const int> where, std::span<const int> to,
                    std::span<const std::uint64_t> bytes);

// Point to point: sends `to[r]` to each rank r whose part is not empty, and receives `counts[r]`
// values from each rank r whose count is not 0 (the same pairs, seen from the other side).
std::vector<std::vector<std::int64_t>> send_receive(std::span<const std::vector<std::int64_t>> to,
                                                    std::span<const int> counts);
std::vector<std::vector<double>> send_receive(std::span<const std::vector<double>> to,
                                              std::span<const int> counts);
// The same where the receiver does not know the lengths: one message (which may be empty) to each
// rank r with `sends[r]`, one from each rank r with `expects[r]`.
std::vector<std::vector<std::int64_t>> send_receive_lists(
    std::span<const std::vector<std::int64_t>> to, std::span<const char> sends,
    std::span<const char> expects);

// Sums each element over the ranks, in place.
void sum_over_ranks(std::span<double> values);
std::int64_t sum_over_ranks(std::int64_t value);
// The largest of each element over the ranks, in place.
void max_over_ranks(std::span<double> values);
// Rank 0's values on every rank.
void from_leader(std::span<int> values);
void from_leader(std::span<double> values);
// True on every rank when `values` is the same on every rank.
bool same_on_every_rank(std::span<const int> values);

}  // namespace lbb
