// `lbbench partition`'s input: read_weights (the command's own reader, from a stream, with its
// checks and messages) against a plain std::from_chars loop over the same text in memory, side
// by side in each repetition by the thread's CPU clock. vs_from_chars = read_weights time /
// plain parse time, on a million weights written with 17 significant digits.
#include <benchmark/benchmark.h>

#include <charconv>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "harness/base/clock.h"
#include "harness/cli/partition_command.h"

namespace {

std::string weights_text(int m) {
  std::mt19937_64 rng(1986);
  std::uniform_real_distribution<double> u(0, 10);
  std::string text;
  char buf[32];
  for (int i = 0; i < m; ++i) {
    const int n = std::snprintf(buf, sizeof buf, "%.17g%c", u(rng), i % 8 == 7 ? '\n' : ' ');
    text.append(buf, n);
  }
  return text;
}

// The floor: skip blanks, from_chars, push_back; no checks, no line numbers.
std::vector<double> plain_parse(const std::string& text) {
  std::vector<double> out;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p != end) {
    if (*p == ' ' || *p == '\n') {
      ++p;
      continue;
    }
    double v = 0;
    p = std::from_chars(p, end, v).ptr;
    out.push_back(v);
  }
  return out;
}

void BM_PartitionParseVsFromChars(benchmark::State& state) {
  const std::string text = weights_text(static_cast<int>(state.range(0)));
  double reader_s = 0, plain_s = 0;
  bool same = true;
  for (auto _ : state) {
    double t0 = lbb::thread_cpu_now();
    std::istringstream in(text);
    const std::vector<double> read = lbb::read_weights(in, "bench");
    const double t1 = lbb::thread_cpu_now();
    const std::vector<double> plain = plain_parse(text);
    const double t2 = lbb::thread_cpu_now();
    reader_s += t1 - t0;
    plain_s += t2 - t1;
    same = same && read == plain;
  }
  if (!same) state.SkipWithError("read_weights and the plain parse disagree");
  state.counters["read_weights_ms"] = reader_s / state.iterations() * 1e3;
  state.counters["from_chars_ms"] = plain_s / state.iterations() * 1e3;
  state.counters["vs_from_chars"] = reader_s / plain_s;
}
BENCHMARK(BM_PartitionParseVsFromChars)
    ->Arg(1000000)
    ->Iterations(3)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMillisecond);

}  // namespace
