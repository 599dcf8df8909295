#include "balancers/between_steps/parts/gossip_rounds.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "core/splitmix.h"

namespace lbb {

GossipHoldings::GossipHoldings(std::span<const int> owner, std::span<const double> cost,
                               std::span<const double> speed)
    : cost_(cost), speed_(speed), held_(speed.size()), time_(speed.size(), 0.0) {
  std::vector<std::size_t> count(speed.size(), 0);
  for (int p : owner) ++count[p];
  for (std::size_t p = 0; p < held_.size(); ++p) held_[p].reserve(count[p]);
  for (std::size_t m = 0; m < owner.size(); ++m) held_[owner[m]].push_back(static_cast<int>(m));
  for (int p = 0; p < processors(); ++p) resum(p);
  average_ = std::accumulate(cost.begin(), cost.end(), 0.0) /
             std::accumulate(speed.begin(), speed.end(), 0.0);
}

// In module order, as processor_loads (core/assignment.h) sums: the same time to the last bit.
void GossipHoldings::resum(int p) {
  double sum = 0;
  for (int m : held_[p]) sum += cost_[m];
  time_[p] = sum / speed_[p];
}

void GossipHoldings::apply(std::span<const GossipMove> moves) {
  std::vector<int> touched;
  for (const GossipMove& move : moves) {
    std::vector<int>& from = held_[move.from];
    from.erase(std::lower_bound(from.begin(), from.end(), move.module));
    std::vector<int>& to = held_[move.to];
    to.insert(std::lower_bound(to.begin(), to.end(), move.module), move.module);
    touched.push_back(move.from);
    touched.push_back(move.to);
  }
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  for (int p : touched) resum(p);
}

namespace {

// log_f P rounds (Menon & Kale 2013): the fewest with fanout^rounds >= P; base 2 at fanout 1.
int gossip_round_count(int processors, const GossipSettings& s) {
  if (s.rounds > 0) return s.rounds;
  const std::int64_t base = std::max(s.fanout, 2);
  int rounds = 0;
  for (std::int64_t reach = 1; reach < processors; reach *= base) ++rounds;
  return rounds;
}

// A holder with `room` places left takes the news it ranks first by a hash of holder and
// processor: a sample that differs between holders, so they do not all know the same few.
void keep_ranked(std::vector<int>& news, std::size_t room, int holder, std::uint64_t salt) {
  auto rank = [&](int u) {
    return splitmix64(salt ^
                      (static_cast<std::uint64_t>(holder) << 32 ^ static_cast<std::uint32_t>(u)));
  };
  std::nth_element(news.begin(), news.begin() + static_cast<std::ptrdiff_t>(room), news.end(),
                   [&](int a, int b) { return rank(a) < rank(b); });
  news.resize(room);
  std::sort(news.begin(), news.end());
}

// `message` merged into what `holder` knows (sorted); true if it learned something.
bool learn(std::vector<int>& known, std::span<const int> message, int holder,
           const GossipSettings& s, std::uint64_t salt, std::vector<int> (&scratch)[2]) {
  const auto cap = static_cast<std::size_t>(s.knowledge);
  if (cap > 0 && known.size() >= cap) return false;  // full: it learns, so forwards, no more
  std::vector<int>& news = scratch[0];
  news.clear();
  std::set_difference(message.begin(), message.end(), known.begin(), known.end(),
                      std::back_inserter(news));
  if (news.empty()) return false;
  if (cap > 0 && known.size() + news.size() > cap)
    keep_ranked(news, cap - known.size(), holder, salt);
  std::vector<int>& merged = scratch[1];
  merged.clear();
  std::merge(known.begin(), known.end(), news.begin(), news.end(), std::back_inserter(merged));
  if (cap > 0) known.reserve(cap);  // one allocation per processor, not one per growth
  known.assign(merged.begin(), merged.end());
  return true;
}

// What each processor knows after the gossip: the underloaded processors it heard of (sorted).
// Who learned something in a round forwards all it knows to `fanout` random processors in the
// next; a message carries what its sender knew when the round began.
std::vector<std::vector<int>> spread(std::span<const double> time, double average,
                                     const GossipSettings& s, int step, std::mt19937_64& rng) {
  const int P = static_cast<int>(time.size());
  std::vector<std::vector<int>> known(P);
  std::vector<int> senders, sent, scratch[2];
  std::vector<std::size_t> start;
  for (int p = 0; p < P; ++p)
    if (time[p] < average) known[p] = {p}, senders.push_back(p);
  const std::uint64_t salt = splitmix64(s.seed ^ static_cast<std::uint64_t>(step) << 20);
  std::uniform_int_distribution<int> anyone(0, P - 1);
  enum : std::uint8_t { kInformed = 1, kFull = 2 };  // a byte a processor, read before its list
  std::vector<std::uint8_t> mark(P, 0);
  for (int r = 0, rounds = gossip_round_count(P, s); r < rounds && !senders.empty(); ++r) {
    sent.clear(), start.assign(1, 0);
    for (int p : senders) {
      sent.insert(sent.end(), known[p].begin(), known[p].end());
      start.push_back(sent.size());
    }
    for (std::size_t i = 0; i < senders.size(); ++i) {
      const std::span<const int> message(sent.data() + start[i], start[i + 1] - start[i]);
      for (int k = 0; k < s.fanout; ++k) {
        const int q = anyone(rng);
        if (mark[q] & kFull) continue;  // learn() would say so, after a cache miss on its list
        if (!learn(known[q], message, q, s, salt, scratch)) continue;
        mark[q] |= kInformed;
        if (s.knowledge > 0 && known[q].size() >= static_cast<std::size_t>(s.knowledge))
          mark[q] |= kFull;
      }
    }
    senders.clear();
    for (int q = 0; q < P; ++q)
      if (mark[q] & kInformed) senders.push_back(q), mark[q] &= ~kInformed;
  }
  return known;
}

struct TransferContext {
  const GossipHoldings& holdings;
  std::span<const double> gossiped;  // the loads as gossiped, before anyone's transfers
  const GossipSettings& s;
};

// One overloaded processor's transfers, largest module first, on what it knows: receivers drawn
// by their room under the average as it estimates them (gossiped, plus its own transfers).
void transfer(int p, std::span<const int> known, std::vector<double>& time,
              const TransferContext& c, std::mt19937_64& rng, std::vector<GossipMove>& moves) {
  const std::span<const double> cost = c.holdings.cost(), speed = c.holdings.speed();
  const double average = c.holdings.average();
  std::vector<int> modules(c.holdings.modules(p).begin(), c.holdings.modules(p).end());
  std::stable_sort(modules.begin(), modules.end(), [&](int a, int b) { return cost[a] > cost[b]; });
  std::vector<double> estimate(known.size()), room(known.size());
  for (std::size_t i = 0; i < known.size(); ++i) estimate[i] = c.gossiped[known[i]];
  for (int m : modules) {
    if (time[p] <= c.s.threshold * average) return;
    for (std::size_t i = 0; i < known.size(); ++i) room[i] = std::max(0.0, average - estimate[i]);
    if (std::accumulate(room.begin(), room.end(), 0.0) <= 0) return;
    const std::size_t i = std::discrete_distribution<std::size_t>(room.begin(), room.end())(rng);
    const int u = known[i];
    const double arrives = estimate[i] + cost[m] / speed[u];
    if (c.s.tempered ? arrives >= time[p] : arrives > average) continue;
    estimate[i] = arrives;
    time[u] += cost[m] / speed[u];
    time[p] -= cost[m] / speed[p];
    moves.push_back({m, p, u});
  }
}

// Each module's first owner and last destination, where they differ.
std::vector<GossipMove> net_moves(std::vector<GossipMove> moves) {
  std::stable_sort(moves.begin(), moves.end(),
                   [](const GossipMove& a, const GossipMove& b) { return a.module < b.module; });
  std::vector<GossipMove> net;
  for (std::size_t i = 0; i < moves.size();) {
    std::size_t j = i;
    while (j + 1 < moves.size() && moves[j + 1].module == moves[i].module) ++j;
    if (moves[i].from != moves[j].to) net.push_back({moves[i].module, moves[i].from, moves[j].to});
    i = j + 1;
  }
  return net;
}

}  // namespace

std::vector<GossipMove> gossip_decide(const GossipSettings& settings, GossipHoldings& holdings,
                                      int step) {
  const int P = holdings.processors();
  std::mt19937_64 rng(settings.seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(step + 1));
  const double overloaded = settings.threshold * holdings.average();
  std::vector<GossipMove> all, moves;
  for (int it = 0; it < settings.iterations; ++it) {
    std::vector<double> time(holdings.times().begin(), holdings.times().end());
    // No one above the threshold: no transfer, in this iteration or any after it.
    if (std::none_of(time.begin(), time.end(), [&](double t) { return t > overloaded; })) break;
    const std::vector<std::vector<int>> known =
        spread(time, holdings.average(), settings, step, rng);
    const std::vector<double> gossiped = time;
    const TransferContext context{holdings, gossiped, settings};
    moves.clear();
    for (int p = 0; p < P; ++p)
      if (time[p] > overloaded) transfer(p, known[p], time, context, rng, moves);
    holdings.apply(moves);
    all.insert(all.end(), moves.begin(), moves.end());
  }
  return net_moves(std::move(all));
}

}  // namespace lbb
