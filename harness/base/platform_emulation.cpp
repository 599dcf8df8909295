#include "harness/base/platform_emulation.h"

#include <algorithm>
#include <stdexcept>

#include "core/splitmix.h"
#include "harness/base/clock.h"

namespace lbb {

namespace {

// A dependent chain of multiply-adds the compiler cannot drop or shorten. Never inlined: the
// calibration and busy_work must run the same machine code, or the rate is another loop's.
[[gnu::noinline]] double spin(std::int64_t iterations, double x) {
  for (std::int64_t i = 0; i < iterations; ++i) x = x * 0.999999 + 1e-7;
  return x;
}

thread_local volatile double sink = 0;  // keeps every spin's result alive

constexpr double kSpinSeconds = 20e-6;  // the longest spin between two CPU clock reads

}  // namespace

PlatformEmulation::PlatformEmulation(std::span<const double> speed, const ExternalLoad& load,
                                     double start)
    : speed_(speed.begin(), speed.end()), load_(load), start_(start) {
  for (double s : speed_)
    if (!(s > 0 && s <= 1))
      throw std::invalid_argument(
          "emulated speeds must lie in (0, 1]: busy work can only slow "
          "a processor down");
  if (std::any_of(load_.max.begin(), load_.max.end(), [](double m) { return !(m >= 0); }) ||
      !(load_.persist_s > 0))
    throw std::invalid_argument("external load needs max >= 0 and persist_s > 0");
  active_ =
      load_.any() || std::any_of(speed_.begin(), speed_.end(), [](double s) { return s != 1.0; });
}

bool ExternalLoad::any() const {
  return std::any_of(max.begin(), max.end(), [](double m) { return m > 0; });
}

double PlatformEmulation::load_at(int p, double t) const {
  const double max = load_.max_of(p);
  if (max <= 0) return 0;
  const auto interval = static_cast<std::uint64_t>(std::max(0.0, t - start_) / load_.persist_s);
  const std::uint64_t draw =
      splitmix64(splitmix64(splitmix64(load_.seed) ^ static_cast<std::uint64_t>(p)) ^ interval);
  return max * static_cast<double>(draw >> 11) * 0x1.0p-53;
}

double PlatformEmulation::extra_seconds(int p, double seconds, double level) const {
  return std::max(0.0, seconds * ((1.0 + level) / speed_[p] - 1.0));
}

double busy_work_rate() {
  static const double rate = [] {
    std::int64_t n = 1 << 16;
    while (true) {
      const double c0 = thread_cpu_now();
      sink = spin(n, sink);
      const double t = thread_cpu_now() - c0;
      if (t > 0.02) return static_cast<double>(n) / t;
      n *= 2;
    }
  }();
  return rate;
}

void busy_work(double seconds) {
  if (seconds <= 0) return;
  // Runs until the thread's own CPU clock has advanced by `seconds`. Each spin is sized by the
  // rate this thread last measured over a spin of a quarter chunk or more (about 20 us between
  // clock reads), so a calibration taken while a sibling hyperthread was idle cannot overshoot a
  // short request, and one slow sample is corrected by the next chunk.
  thread_local double rate = busy_work_rate();
  double now = thread_cpu_now();
  const double end = now + seconds;
  const auto chunk = std::max<std::int64_t>(1, static_cast<std::int64_t>(kSpinSeconds * rate));
  double x = sink;
  while (now < end) {
    const std::int64_t n = std::min(chunk, static_cast<std::int64_t>((end - now) * rate) + 1);
    x = spin(n, x);
    const double then = thread_cpu_now();
    if (n >= chunk / 4 && then > now) rate = static_cast<double>(n) / (then - now);
    now = then;
  }
  sink = x;
}

const ParamSpec& relative_speed_spec() {
  static const ParamSpec spec =
      real_param("speed", 1.0, "relative speed of a processor", 1e-6, 1e6);
  return spec;
}

}  // namespace lbb
