#include "harness/mpi/rank_exchange.h"

#include <mpi.h>
#include <unistd.h>

#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lbb {

namespace {

int as_count(std::size_t n) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw std::length_error("a message of " + std::to_string(n) + " bytes exceeds MPI's int count");
  return static_cast<int>(n);
}

// The modules a rank contributes, in module order: every side walks the same list.
template <class Visit>
void each_module_of(int rank, const RankLayout& ranks, std::span<const int> holder, Visit visit) {
  for (int m = 0; m < static_cast<int>(holder.size()); ++m)
    if (ranks.rank_of(holder[m]) == rank) visit(m);
}

template <class T>
std::vector<std::vector<T>> send_receive_as(std::span<const std::vector<T>> to,
                                            std::span<const int> counts, MPI_Datatype type) {
  constexpr int kTag = 8;  // one message per pair: their order needs no tag of its own
  std::vector<std::vector<T>> received(counts.size());
  std::vector<MPI_Request> requests;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] == 0) continue;
    received[r].resize(counts[r]);
    requests.emplace_back();
    MPI_Irecv(received[r].data(), counts[r], type, static_cast<int>(r), kTag, MPI_COMM_WORLD,
              &requests.back());
  }
  for (std::size_t r = 0; r < to.size(); ++r) {
    if (to[r].empty()) continue;
    requests.emplace_back();
    MPI_Isend(to[r].data(), as_count(to[r].size()), type, static_cast<int>(r), kTag, MPI_COMM_WORLD,
              &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  return received;
}

}  // namespace

std::vector<std::byte> allgather_bytes(std::span<const std::byte> mine, int ranks,
                                       std::vector<std::size_t>& offset) {
  std::vector<int> counts(ranks), displs(ranks);
  const int my_count = as_count(mine.size());
  MPI_Allgather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  offset.assign(ranks + 1, 0);
  for (int r = 0; r < ranks; ++r) offset[r + 1] = offset[r] + counts[r];
  for (int r = 0; r < ranks; ++r) displs[r] = as_count(offset[r]);
  std::vector<std::byte> all(offset[ranks]);
  MPI_Allgatherv(mine.data(), my_count, MPI_BYTE, all.data(), counts.data(), displs.data(),
                 MPI_BYTE, MPI_COMM_WORLD);
  return all;
}

std::string rank_placement(const RankLayout& ranks) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  const std::string mine =
      std::to_string(ranks.rank) + ":" + host + ":" + std::to_string(ranks.threads);
  std::vector<std::size_t> offset;
  const std::vector<std::byte> all =
      allgather_bytes(std::as_bytes(std::span(mine.data(), mine.size())), ranks.ranks, offset);
  std::string out;
  for (int r = 0; r < ranks.ranks; ++r) {
    if (r > 0) out += ',';
    out.append(reinterpret_cast<const char*>(all.data()) + offset[r], offset[r + 1] - offset[r]);
  }
  return out;
}

Traffic exchange_outputs(Workload& workload, const RankLayout& ranks, std::span<const int> owner,
                         int step, int phase) {
  std::vector<std::span<std::byte>> spans;
  const auto outputs = [&](int m) {
    spans.clear();
    if (!workload.phase_outputs(m, step, phase, spans))
      throw std::logic_error("the workload names no outputs: it cannot run across ranks");
    return spans;
  };
  std::vector<std::byte> mine;
  each_module_of(ranks.rank, ranks, owner, [&](int m) {
    for (std::span<std::byte> s : outputs(m)) mine.insert(mine.end(), s.begin(), s.end());
  });
  std::vector<std::size_t> offset;
  const std::vector<std::byte> all = allgather_bytes(mine, ranks.ranks, offset);
  for (int r = 0; r < ranks.ranks; ++r) {
    if (r == ranks.rank) continue;
    std::size_t at = offset[r];
    each_module_of(r, ranks, owner, [&](int m) {
      for (std::span<std::byte> s : outputs(m)) {
        if (at + s.size() > offset[r + 1])
          throw std::logic_error("rank " + std::to_string(r) + " sent fewer outputs than expected");
        std::memcpy(s.data(), all.data() + at, s.size());
        at += s.size();
      }
    });
  }
  return {static_cast<std::int64_t>(mine.size()) * (ranks.ranks - 1), ranks.ranks - 1};
}

Traffic share_states(ModuleStore& store, const RankLayout& ranks, std::span<const int> where) {
  std::vector<std::byte> mine;
  std::vector<std::uint64_t> sizes;
  // Sizes change in finish_step (bodies crossing cells): each rank's are sent beside its bytes.
  each_module_of(ranks.rank, ranks, where, [&](int m) {
    const std::span<std::byte> s = store.state(m);
    mine.insert(mine.end(), s.begin(), s.end());
    sizes.push_back(s.size());
  });
  std::vector<std::size_t> offset, size_offset;
  const std::vector<std::byte> all = allgather_bytes(mine, ranks.ranks, offset);
  const std::vector<std::byte> all_sizes =
      allgather_bytes(std::as_bytes(std::span(sizes)), ranks.ranks, size_offset);
  for (int r = 0; r < ranks.ranks; ++r) {
    if (r == ranks.rank) continue;
    std::size_t at = offset[r], k = size_offset[r];
    each_module_of(r, ranks, where, [&](int m) {
      std::uint64_t n = 0;
      std::memcpy(&n, all_sizes.data() + k, sizeof n);
      k += sizeof n;
      if (at + n > offset[r + 1]) throw std::logic_error("a shared state overruns its rank's part");
      store.adopt(m, {all.data() + at, static_cast<std::size_t>(n)});
      at += n;
    });
  }
  return {static_cast<std::int64_t>(mine.size() + sizes.size() * sizeof(std::uint64_t)) *
              (ranks.ranks - 1),
          ranks.ranks - 1};
}

void drop_replicas(ModuleStore& store, const RankLayout& ranks, std::span<const int> where) {
  for (int m = 0; m < static_cast<int>(where.size()); ++m)
    if (!ranks.mine(where[m]) && store.holds(m)) store.release(m);
}

Traffic move_states(ModuleStore& store, const RankLayout& ranks, std::span<const int> moved,
                    std::span<const int> where, std::span<const int> to,
                    std::span<const std::uint64_t> bytes) {
  constexpr int kTag = 7;  // one tag: MPI keeps each pair's messages in order, as both walk `moved`
  std::vector<MPI_Request> requests;
  std::vector<std::pair<int, std::vector<std::byte>>> received;
  received.reserve(moved.size());
  Traffic sent;
  for (int m : moved) {
    const int from = ranks.rank_of(where[m]), dest = ranks.rank_of(to[m]);
    if (from == dest) continue;
    sent.bytes += static_cast<std::int64_t>(bytes[m]);
    ++sent.messages;
    if (from == ranks.rank) {
      const std::span<std::byte> s = store.state(m);
      if (s.size() != bytes[m]) throw std::logic_error("a state changed size before its move");
      requests.emplace_back();
      MPI_Isend(s.data(), as_count(s.size()), MPI_BYTE, dest, kTag, MPI_COMM_WORLD,
                &requests.back());
    } else if (dest == ranks.rank) {
      received.emplace_back(m, std::vector<std::byte>(bytes[m]));
      requests.emplace_back();
      MPI_Irecv(received.back().second.data(), as_count(bytes[m]), MPI_BYTE, from, kTag,
                MPI_COMM_WORLD, &requests.back());
    }
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  for (auto& [m, state] : received) store.adopt(m, state);
  for (int m : moved)
    if (ranks.rank_of(where[m]) == ranks.rank && !ranks.mine(to[m])) store.release(m);
  return sent;
}

std::vector<std::vector<std::int64_t>> send_receive(std::span<const std::vector<std::int64_t>> to,
                                                    std::span<const int> counts) {
  return send_receive_as(to, counts, MPI_INT64_T);
}

std::vector<std::vector<double>> send_receive(std::span<const std::vector<double>> to,
                                              std::span<const int> counts) {
  return send_receive_as(to, counts, MPI_DOUBLE);
}

std::vector<std::vector<std::int64_t>> send_receive_lists(
    std::span<const std::vector<std::int64_t>> to, std::span<const char> sends,
    std::span<const char> expects) {
  constexpr int kTag = 9;  // one message per pair and call, as send_receive's
  std::vector<MPI_Request> requests;
  for (std::size_t r = 0; r < sends.size(); ++r) {
    if (!sends[r]) continue;
    requests.emplace_back();
    MPI_Isend(to[r].data(), as_count(to[r].size()), MPI_INT64_T, static_cast<int>(r), kTag,
              MPI_COMM_WORLD, &requests.back());
  }
  std::vector<std::vector<std::int64_t>> received(expects.size());
  for (std::size_t r = 0; r < expects.size(); ++r) {
    if (!expects[r]) continue;
    MPI_Status status;
    MPI_Probe(static_cast<int>(r), kTag, MPI_COMM_WORLD, &status);
    int count = 0;
    MPI_Get_count(&status, MPI_INT64_T, &count);
    received[r].resize(count);
    MPI_Recv(received[r].data(), count, MPI_INT64_T, static_cast<int>(r), kTag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  return received;
}

std::int64_t sum_over_ranks(std::int64_t value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return value;
}

void sum_over_ranks(std::span<double> values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), as_count(values.size()), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
}

void max_over_ranks(std::span<double> values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), as_count(values.size()), MPI_DOUBLE, MPI_MAX,
                MPI_COMM_WORLD);
}

void from_leader(std::span<int> values) {
  MPI_Bcast(values.data(), as_count(values.size()), MPI_INT, 0, MPI_COMM_WORLD);
}

void from_leader(std::span<double> values) {
  MPI_Bcast(values.data(), as_count(values.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

bool same_on_every_rank(std::span<const int> values) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the values
  for (int v : values) h = (h ^ static_cast<std::uint32_t>(v)) * 1099511628211ull;
  std::uint64_t lo = h, hi = h;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

}  // namespace lbb
