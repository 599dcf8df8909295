#pragma once
// The measured timeline of a run (execution.timeline: true): each processor's spans, written only
// by whoever runs that processor at the time (its thread, or its rank's one agent between its
// threads' runs), into a buffer of its own reserved at the start: no lock, and no allocation
// while the reservation lasts. Times are the executors' own wall clock reads (CLOCK_MONOTONIC,
// harness/base/clock.h), so module spans cost no clock read: a module's end is the next one's
// start. A processor's waits are the gaps of its track from the end of its work in a phase to its
// start of the next phase (or the run's end), less what it did meanwhile (a decision, the
// workload's serial end of step, copies): no two spans of one track overlap.
#include <cmath>
#include <cstdint>
#include <vector>

#include "harness/base/timeline_span.h"

namespace lbb {

class TimelineRecorder {
 public:
  // Off until enabled: add() and the others then do nothing.
  void enable(int processors, std::size_t reserve_per_processor);
  bool on() const { return on_; }
  // The run's time base: the wall clock (seconds) that the spans count from.
  void set_base(double wall) { base_ = wall; }
  double base() const { return base_; }

  // Processor p's span of `kind` from wall t0 to t1 (seconds) in protocol step s (warm-up
  // included) and phase ph.
  void add(int p, SpanKind kind, int s, int ph, int module, double t0, double t1) {
    if (!on_) return;
    Track& t = tracks_[p];
    t.spans.push_back({ns(t0), ns(t1), s, module, p, static_cast<std::int16_t>(ph), 0, kind});
  }
  // Processor p stopped working at wall `t` (its phase's modules are done): what follows on its
  // track until resume() is a wait, unless it did something else.
  void idle_from(int p, double t, int s, int ph) {
    if (!on_) return;
    Track& k = tracks_[p];
    k.idle = ns(t);
    k.mark = k.spans.size();
    k.step = s;
    k.phase = ph;
  }
  // Processor p starts working again at wall `t`: the gaps since idle_from become waits.
  void resume(int p, double t);
  void resume_all(double t);  // the run's end: every track's last wait

  // Every measured step's spans (warm-up ones dropped, steps counted from the first measured),
  // by processor, each processor's in time order.
  std::vector<TimelineSpan> collect(int warmup) const;

 private:
  std::int64_t ns(double wall) const { return std::llround((wall - base_) * 1e9); }
  struct alignas(64) Track {
    std::vector<TimelineSpan> spans;
    std::size_t mark = 0;    // the first span after idle_from
    std::int64_t idle = -1;  // ns: since when it waits; -1: it works
    int step = 0, phase = 0;
  };
  bool on_ = false;
  double base_ = 0;
  std::vector<Track> tracks_;
};

}  // namespace lbb
