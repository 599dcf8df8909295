#include "harness/mpi/rank_agent.h"

#include <mpi.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

#include "harness/base/clock.h"

namespace lbb {

namespace {
// One tag a kind of message; MPI keeps the messages of one sender in order across tags, as the
// agent receives any tag.
enum Tag : int { kNoticeTag = 1, kRequestTag, kGrantTag, kRefuseTag, kDoneTag };
// How long an idle agent sleeps between looks at MPI: it shares the rank's cores with the
// workers, so it must not spin (this is waiting, not emulated work).
constexpr auto kIdlePoll = std::chrono::microseconds(100);

using Bytes = std::shared_ptr<const std::vector<std::byte>>;
Bytes shared(std::vector<std::byte> bytes) {
  return std::make_shared<const std::vector<std::byte>>(std::move(bytes));
}
}  // namespace

// A communicator of the run's own, so that no other message of the process mixes with the
// agents', and the sends still in flight.
struct RankAgent::Comm {
  MPI_Comm comm;
  std::vector<std::pair<MPI_Request, Bytes>> sending;
  Comm() { MPI_Comm_dup(MPI_COMM_WORLD, &comm); }
  ~Comm() { MPI_Comm_free(&comm); }
  void post(const Outgoing& o) {
    sending.emplace_back(MPI_REQUEST_NULL, o.bytes);
    MPI_Isend(o.bytes->data(), static_cast<int>(o.bytes->size()), MPI_BYTE, o.rank, o.tag, comm,
              &sending.back().first);
  }
  // Forgets the sends that completed; true when none is left.
  bool sent() {
    std::erase_if(sending, [](auto& s) {
      int done = 0;
      MPI_Test(&s.first, &done, MPI_STATUS_IGNORE);
      return done != 0;
    });
    return sending.empty();
  }
};

RankAgent::RankAgent(AsyncRun& run, const ModuleGraph& graph, Workload& workload,
                     ModuleStore& store, const RankLayout& ranks, int steps)
    : run_(run),
      graph_(graph),
      workload_(workload),
      store_(store),
      ranks_(ranks),
      steps_(steps),
      comm_(std::make_unique<Comm>()),
      order_(graph),
      answer_(static_cast<std::size_t>(ranks.ranks) * ranks.threads) {}

RankAgent::~RankAgent() = default;

void RankAgent::queue(int rank, int tag, Bytes bytes) {
  outbox_.push_back({rank, tag, std::move(bytes)});
}

// Counted as notices: each message to each rank (one event a figure: a run's events grow as
// the run's clock spans do, by the module step).
void RankAgent::to_every_other_rank(const Notice& notice, double when, int except) {
  const Bytes bytes = shared(encode(notice));
  int sent = 0;
  for (int r = 0; r < ranks_.ranks; ++r) {
    if (r == ranks_.rank || r == except) continue;
    queue(r, kNoticeTag, bytes);
    ++sent;
  }
  events_.push_back({when, kNoticeMessages, static_cast<double>(sent)});
  events_.push_back({when, kNoticeBytes, static_cast<double>(sent * bytes->size())});
}

void RankAgent::finished(int module, int step, int processor, double end, double cpu) {
  Notice n{Notice::kStep, module, step, processor, processor, end, cpu, {}};
  std::vector<std::span<std::byte>> outputs;
  // Copied now: the module's next steps on this rank may overwrite them before they are sent.
  if (!workload_.phase_outputs(module, step, 0, outputs))
    throw std::logic_error("the workload names no outputs: it cannot run across ranks");
  for (std::span<std::byte> s : outputs) n.bytes.insert(n.bytes.end(), s.begin(), s.end());
  to_every_other_rank(n, end);
}

void RankAgent::took(const ModuleTake& take, int step, double when) {
  events_.push_back({when, kLocalTakes, 1.0});
  to_every_other_rank({Notice::kTake, take.module, step, take.from, take.to, when, 0, {}}, when);
}

std::optional<MigrationCharge> RankAgent::take_elsewhere(const ModuleTake& take, double when,
                                                         std::unique_lock<std::mutex>& lock) {
  Answer& a = answer_[take.to];
  a = Answer{true, false, std::nullopt, wall_now()};
  queue(ranks_.rank_of(take.from), kRequestTag,
        shared(encode({Notice::kTake, take.module, 0, take.from, take.to, when, 0, {}})));
  answered_.wait(lock, [&] { return a.answered || run_.failed(); });
  a.asked = false;
  return a.charge;
}

bool RankAgent::asking() const {
  for (const Answer& a : answer_)
    if (a.asked) return true;
  return false;
}

void RankAgent::serve() noexcept {
  try {
    serve_until_every_rank_is_done();
  } catch (...) {
    run_.fail(std::current_exception());
  }
  const auto lock = run_.lock();
  answered_.notify_all();
}

// Each round: the queued messages out, then every message that arrived in, each applied under
// the run's lock. A rank tells the others it is done once it has seen every module finish every
// step and asks nothing more; it stops when every rank has said so and its sends are out.
void RankAgent::serve_until_every_rank_is_done() {
  bool told = false;
  int done_ranks = 0;
  std::vector<std::byte> message;
  while (true) {
    std::vector<Outgoing> out;
    bool finished = false;
    {
      const auto lock = run_.lock();
      if (run_.failed()) return;
      out.swap(outbox_);
      finished = run_.over() && !asking();
    }
    for (const Outgoing& o : out) comm_->post(o);
    if (finished && !told) {
      for (int r = 0; r < ranks_.ranks; ++r)
        if (r != ranks_.rank) comm_->post({r, kDoneTag, shared({})});
      told = true;
    }
    bool moved = !out.empty();
    for (int flag = 1; flag;) {
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_->comm, &flag, &status);
      if (!flag) break;
      int count = 0;
      MPI_Get_count(&status, MPI_BYTE, &count);
      message.resize(count);
      MPI_Recv(message.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, comm_->comm,
               MPI_STATUS_IGNORE);
      moved = true;
      if (status.MPI_TAG == kDoneTag) {
        ++done_ranks;
        continue;
      }
      auto lock = run_.lock();
      handle(status.MPI_SOURCE, status.MPI_TAG, message);
      answered_.notify_all();
    }
    const bool sent = comm_->sent();
    if (told && done_ranks == ranks_.ranks - 1 && sent) return;
    if (!moved) std::this_thread::sleep_for(kIdlePoll);
  }
}

void RankAgent::handle(int source, int tag, std::span<const std::byte> message) {
  Notice n = decode(message);
  switch (tag) {
    case kNoticeTag:
    case kGrantTag:
      order_.arrive(std::move(n), run_.module_steps(), run_.owner(),
                    [&](Notice& ready) { apply(ready); });
      return;
    case kRequestTag:
      answer_request(n, source);
      return;
    case kRefuseTag: {
      Answer& a = answer_.at(n.to);
      a.answered = true;
      a.charge.reset();
      events_.push_back({n.end, kTakesRefused, 1.0});
      return;
    }
    default:
      throw std::runtime_error("a message of unknown tag " + std::to_string(tag));
  }
}

// A notice whose turn came: a step's outputs into the workload, then the step; a take's new
// owner, and, at the taker's rank, the state granted with it.
void RankAgent::apply(Notice& n) {
  if (n.kind == Notice::kStep) {
    std::vector<std::span<std::byte>> outputs;
    workload_.phase_outputs(n.module, n.step, 0, outputs);
    std::size_t at = 0;
    for (std::span<std::byte> s : outputs) {
      if (at + s.size() > n.bytes.size())
        throw std::runtime_error("a step notice shorter than the module's outputs");
      std::memcpy(s.data(), n.bytes.data() + at, s.size());
      at += s.size();
    }
    run_.ran_elsewhere(n.module, n.step, n.end, n.cpu);
    return;
  }
  const ModuleTake take{n.module, n.from, n.to};
  if (!ranks_.mine(n.to)) {
    run_.move_module(take);
    return;
  }
  Answer& a = answer_.at(n.to);
  store_.adopt(n.module, n.bytes);
  run_.move_module(take);
  a.answered = true;
  a.charge = MigrationCharge{n.bytes.size(), wall_now() - a.asked_at};
  events_.push_back({n.end, kRemoteTakes, 1.0});
  events_.push_back({n.end, kRemoteBytes, static_cast<double>(n.bytes.size())});
  events_.push_back({n.end, kRemoteSeconds, a.charge->seconds});
}

// Granted only while the module is still the giver's, neither running nor being copied, and has
// steps left: its state goes to the taker's rank, its new owner to every other rank.
void RankAgent::answer_request(const Notice& ask, int source) {
  const int m = ask.module;
  if (m < 0 || m >= graph_.modules()) throw std::runtime_error("a take request of no module");
  const std::vector<int>& step = run_.module_steps();
  if (!ranks_.mine(ask.from) || run_.owner()[m] != ask.from || !run_.movable(m) ||
      step[m] >= steps_) {
    queue(source, kRefuseTag, shared(encode(ask)));
    return;
  }
  Notice grant{Notice::kTake, m, step[m], ask.from, ask.to, ask.end, 0, {}};
  run_.move_module({m, ask.from, ask.to});
  to_every_other_rank(grant, ask.end, source);
  const std::span<const std::byte> state = store_.state(m);
  grant.bytes.assign(state.begin(), state.end());
  store_.release(m);
  queue(source, kGrantTag, shared(encode(grant)));
}

}  // namespace lbb
