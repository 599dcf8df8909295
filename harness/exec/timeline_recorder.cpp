#include "harness/exec/timeline_recorder.h"

#include <algorithm>

namespace lbb {

void TimelineRecorder::enable(int processors, std::size_t reserve_per_processor) {
  on_ = true;
  tracks_.assign(static_cast<std::size_t>(processors), Track{});
  for (Track& t : tracks_) t.spans.reserve(reserve_per_processor);
}

void TimelineRecorder::resume(int p, double wall) {
  if (!on_) return;
  Track& k = tracks_[p];
  if (k.idle < 0) return;
  const std::int64_t until = ns(wall);
  std::int64_t from = k.idle;
  const std::size_t n = k.spans.size();
  const auto wait = [&](std::int64_t to) {
    if (to > from)
      k.spans.push_back(
          {from, to, k.step, -1, p, static_cast<std::int16_t>(k.phase), 0, SpanKind::kWait});
  };
  for (std::size_t i = k.mark; i < n; ++i) {  // what p did meanwhile, in time order
    wait(k.spans[i].start);
    from = std::max(from, k.spans[i].end);
  }
  wait(until);
  k.idle = -1;
}

void TimelineRecorder::resume_all(double wall) {
  for (std::size_t p = 0; p < tracks_.size(); ++p) resume(static_cast<int>(p), wall);
}

std::vector<TimelineSpan> TimelineRecorder::collect(int warmup) const {
  std::vector<TimelineSpan> out;
  std::size_t all = 0;
  for (const Track& t : tracks_) all += t.spans.size();
  out.reserve(all);
  for (const Track& t : tracks_) {
    const std::size_t first = out.size();
    for (TimelineSpan s : t.spans)
      if (s.step >= warmup) {
        s.step -= warmup;
        out.push_back(s);
      }
    // Waits were appended after what they surround.
    std::stable_sort(
        out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
        [](const TimelineSpan& a, const TimelineSpan& b) { return a.start < b.start; });
  }
  return out;
}

}  // namespace lbb
