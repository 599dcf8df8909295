#include "harness/mpi/async_notices.h"

#include <cstring>
#include <stdexcept>

namespace lbb {

namespace {
// The fixed part of a message, then Notice::bytes.
struct Header {
  std::int32_t kind, module, step, from, to;
  double end, cpu;
};
}  // namespace

std::vector<std::byte> encode(const Notice& notice) {
  const Header h{notice.kind, notice.module, notice.step, notice.from,
                 notice.to,   notice.end,    notice.cpu};
  std::vector<std::byte> out(sizeof h + notice.bytes.size());
  std::memcpy(out.data(), &h, sizeof h);
  if (!notice.bytes.empty())
    std::memcpy(out.data() + sizeof h, notice.bytes.data(), notice.bytes.size());
  return out;
}

Notice decode(std::span<const std::byte> message) {
  Header h;
  if (message.size() < sizeof h) throw std::runtime_error("a notice shorter than its header");
  std::memcpy(&h, message.data(), sizeof h);
  if (h.kind != Notice::kStep && h.kind != Notice::kTake)
    throw std::runtime_error("a notice of no known kind");
  Notice n{static_cast<Notice::Kind>(h.kind), h.module, h.step, h.from, h.to, h.end, h.cpu, {}};
  n.bytes.assign(message.begin() + sizeof h, message.end());
  return n;
}

bool notice_ready(const Notice& notice, const ModuleGraph& graph, std::span<const int> step,
                  std::span<const int> owner) {
  const int m = notice.module;
  if (m < 0 || m >= graph.modules()) throw std::runtime_error("a notice of no module");
  if (step[m] != notice.step || owner[m] != notice.from) return false;
  if (notice.kind == Notice::kTake) return true;
  for (int j : graph.neighbours(m))
    if (step[j] < notice.step) return false;
  return true;
}

}  // namespace lbb
