// print_comparison: the comparison as an aligned table, or as rows (row_json) in JSON or CSV.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

#include "core/text.h"
#include "harness/analysis/comparison_table.h"
#include "harness/analysis/json_rows.h"

namespace lbb {

namespace {

const char* clock_name(Clock c) {
  return c == Clock::kWall ? "wall" : "modelled";
}

// The verdict at a glance, before the label: * winner, = equivalent, ? undecided, - not ranked.
char mark(const ComparisonRow& r) {
  switch (r.verdict) {
    case stats::Verdict::kWinner:
      return '*';
    case stats::Verdict::kEquivalent:
      return '=';
    case stats::Verdict::kUndecided:
      return '?';
    default:
      break;
  }
  if (r.complete() && !r.eligible) return '-';
  return ' ';
}

// The wide table's label: its mark, and " (replay)" where the ranking clock is the row's replay.
std::string wide_label(const ComparisonRow& r) {
  const bool replay = r.modelled_by_replay && r.headline == Clock::kModelled;
  return mark(r) + printable(r.config->label) + (replay ? " (replay)" : "");
}

std::string seconds(double x) {
  return format_number(x, 4);
}

std::string ratio_text(const ComparisonRow& r) {
  if (r.baseline.empty()) return "";
  if (r.is_baseline) return "baseline";
  if (!std::isfinite(r.vs_baseline.estimate)) return "-";
  if (!std::isfinite(r.vs_baseline.high)) return format_number(r.vs_baseline.estimate, 3);
  return format_number(r.vs_baseline.estimate, 3) + " [" + format_number(r.vs_baseline.low, 3) +
         "," + format_number(r.vs_baseline.high, 3) + "]";
}

// One clock's cells: median, interval, range, cv.
void clock_cells(std::ostream& out, const stats::SampleSummary& s) {
  std::ostringstream interval, range, cv;
  interval << '[' << seconds(s.ci_low) << ',' << seconds(s.ci_high) << ']';
  range << seconds(s.min) << '-' << seconds(s.max);
  cv << std::fixed << std::setprecision(s.cv < 0.1 ? 1 : 0) << 100 * s.cv << '%';
  out << ' ' << std::setw(10) << seconds(s.median) << ' ' << std::setw(21) << interval.str() << ' '
      << std::setw(21) << range.str() << ' ' << std::setw(6) << cv.str();
}

void clock_header(std::ostream& out, const std::string& name) {
  out << ' ' << std::setw(10) << name << ' ' << std::setw(21) << "95% CI" << ' ' << std::setw(21)
      << "min-max" << ' ' << std::setw(6) << "cv";
}

void print_wide_table(std::ostream& out, const Comparison& c) {
  std::size_t wb = 10, ws = 5, wr = 8;
  std::string baseline;
  for (const auto& r : c.rows) {
    wb = std::max(wb, wide_label(r).size() + 2);
    ws = std::max(ws, printable(r.config->sweep).size());
    wr = std::max(wr, ratio_text(r).size() + 2);
    if (!r.baseline.empty()) baseline = printable(r.baseline);
  }
  wr = std::max(wr, baseline.size() + 5);  // "vs " and a space before it
  const bool any_sweep =
      std::any_of(c.rows.begin(), c.rows.end(), [](auto& r) { return !r.config->sweep.empty(); });
  out << std::left << std::setw(20) << "workload" << std::right << std::setw(4) << "P"
      << "  " << std::left << std::setw(static_cast<int>(wb)) << "balancer";
  if (any_sweep) out << std::setw(static_cast<int>(ws) + 2) << "sweep";
  out << std::right << std::setw(3) << "n";
  clock_header(out, "makespan_s");
  clock_header(out, "wall_s");
  out << std::setw(static_cast<int>(wr)) << ("vs " + (baseline.empty() ? "base" : baseline))
      << std::setw(7) << "eff" << std::setw(7) << "binds" << std::setw(8) << "imbal" << std::setw(9)
      << "migr" << std::setw(10) << "MB_moved" << std::setw(11) << "balance_s"
      << "  verified\n";
  for (const auto& r : c.rows) {
    const ConfigResult& k = *r.config;
    // Names come from the config or a result set from elsewhere: escaped for the terminal.
    out << std::left << std::setw(20) << printable(k.workload) << std::right << std::setw(4)
        << k.processors << "  " << std::left << std::setw(static_cast<int>(wb)) << wide_label(r);
    if (any_sweep) out << std::setw(static_cast<int>(ws) + 2) << printable(k.sweep);
    out << std::right << std::setw(3) << r.makespan.n;
    clock_cells(out, r.makespan);
    clock_cells(out, r.wall);
    out << std::setw(static_cast<int>(wr)) << ratio_text(r) << std::setw(7)
        << format_number(r.efficiency, 3) << std::setw(7) << r.binds() << std::setw(8)
        << format_number(r.imbalance, 3) << std::setw(9) << format_number(r.migrations, 6)
        << std::setw(10) << format_number(r.megabytes, 4) << std::setw(11)
        << format_number(r.balance, 3) << "  " << printable(r.verified);
    // A few attributes (tree counts) stay on the row; long lists go on an indented line.
    const std::string attributes = printable(r.attributes);
    if (attributes.size() <= 120)
      out << attributes << "\n";
    else
      out << "\n" << std::string(24, ' ') << "^" << attributes << "\n";
  }
  if (c.rows.empty()) return;
  const auto simulated = [](const ComparisonRow& r) { return r.config->simulated; };
  out << "n = verified repetitions; medians with distribution-free 95 % intervals (order "
         "statistics; at n = 5 [min, max], which covers 93.8 %); cv = sd / mean; vs = ranking "
         "clock / baseline's: paired rounds' geometric mean ratio with its 95 % t interval "
         "(unpaired: Hodges-Lehmann with the Moses interval; exact: the values' ratio)\n";
  if (!std::all_of(c.rows.begin(), c.rows.end(), simulated))
    out << "makespan = modelled from thread CPU time (per phase, max over processors of busy + "
           "balance + migration; plus serial work), summed over steps; wall = measured; eff = "
           "ideal / makespan; binds = the lower bound that binds: ideal (work spread by speed) "
           "or module (the largest module over the fastest speed); imbal = mean over steps of "
           "max/mean busy - 1\n";
  if (std::any_of(c.rows.begin(), c.rows.end(), simulated))
    out << "simulated rows: makespan = wall = the simulator's modelled time of each step (its "
           "processors' work and charges; docs/ARCHITECTURE.md, \"Simulation\"), summed over "
           "steps; no thread ran\n";
  for (const auto& n : c.notes) out << printable(n) << "\n";
}

// The compact table's verdict of a row, in words (the mark before its label says the same).
std::string verdict(const ComparisonRow& r) {
  if (!r.complete()) return r.verified.starts_with("FAILED") ? "FAILED" : "unverified";
  if (!r.eligible) return "not ranked";
  if (r.verdict == stats::Verdict::kNotJudged) return "alone";
  return stats::verdict_name(r.verdict);  // how it was compared: the footer, and `compared`
}

const char* short_clock(const ComparisonRow& r) {
  if (r.config->simulated) return "sim";
  if (r.headline == Clock::kWall) return "wall";
  return r.modelled_by_replay ? "replay" : "model";
}

std::string interval(const stats::SampleSummary& s) {
  std::ostringstream out;  // not "[" + ...: GCC 12 warns of a false overlap (-Wrestrict)
  out << '[' << seconds(s.ci_low) << ',' << seconds(s.ci_high) << ']';
  return out.str();
}

// One line per workload: every row verified, or which were not and why.
void print_verification(std::ostream& out, const Comparison& c) {
  std::vector<std::string> workloads;
  for (const auto& r : c.rows)
    if (std::find(workloads.begin(), workloads.end(), r.config->workload) == workloads.end())
      workloads.push_back(r.config->workload);
  for (const std::string& w : workloads) {
    std::size_t rows = 0, simulated = 0;
    std::string failed;
    for (const auto& r : c.rows) {
      if (r.config->workload != w) continue;
      ++rows;
      simulated += r.verified == kNotVerifiedSimulated;
      if (!r.complete())
        failed +=
            (failed.empty() ? "" : "; ") + printable(r.config->label) + " " + printable(r.verified);
    }
    const auto count = [](std::size_t n) {
      return std::to_string(n) + (n == 1 ? " row" : " rows");
    };
    out << "verified: " << printable(w) << ": ";
    if (!failed.empty())
      out << "NOT every row: " << failed;
    else if (simulated == rows)
      out << kNotVerifiedSimulated << ": every repetition of its " << count(rows)
          << " complete; no kernel ran, so nothing was checked against a reference";
    else
      out << "every repetition of its " << count(rows - simulated) << " matched its reference"
          << (simulated ? "; " + count(simulated) + " " + kNotVerifiedSimulated : "");
    out << "\n";
  }
}

// The ranking clock of each row, its interval, the ratio and the verdict: rows well under 120
// characters; --wide has the rest.
void print_compact_table(std::ostream& out, const Comparison& c) {
  const auto ranking = [](const ComparisonRow& r) -> const stats::SampleSummary& {
    return r.headline == Clock::kWall ? r.wall : r.makespan;
  };
  std::size_t ww = 9, wb = 10, ws = 0, wi = 8, wr = 8;  // at least the header and a space
  std::string baseline;
  for (const auto& r : c.rows) {
    ww = std::max(ww, printable(r.config->workload).size() + 1);
    wi = std::max(wi, interval(ranking(r)).size() + 1);
    wb = std::max(wb, printable(r.config->label).size() + 2);
    if (!r.config->sweep.empty()) ws = std::max(ws, printable(r.config->sweep).size() + 2);
    wr = std::max(wr, ratio_text(r).size() + 2);
    if (!r.baseline.empty()) baseline = printable(r.baseline);
  }
  wr = std::max(wr, baseline.size() + 5);  // "vs " and a space before it
  const auto cell = [&](std::size_t w) { return std::setw(static_cast<int>(w)); };
  out << std::left << cell(ww) << "workload" << std::right << std::setw(4) << "P"
      << "  " << std::left << cell(wb) << "balancer" << cell(ws) << (ws ? "sweep" : "")
      << std::right << std::setw(3) << "n" << std::setw(7) << "clock" << std::setw(10) << "median_s"
      << cell(wi) << "95% CI" << cell(wr) << ("vs " + (baseline.empty() ? "base" : baseline))
      << std::setw(7) << "binds"
      << "  verdict\n";
  for (const auto& r : c.rows) {
    const ConfigResult& k = *r.config;
    const stats::SampleSummary& s = ranking(r);
    out << std::left << cell(ww) << printable(k.workload) << std::right << std::setw(4)
        << k.processors << "  " << std::left << cell(wb) << (mark(r) + printable(k.label))
        << cell(ws) << printable(k.sweep) << std::right << std::setw(3) << s.n << std::setw(7)
        << short_clock(r) << std::setw(10) << seconds(s.median) << cell(wi) << interval(s)
        << cell(wr) << ratio_text(r) << std::setw(7) << r.binds() << "  " << verdict(r) << "\n";
  }
  if (c.rows.empty()) return;
  print_verification(out, c);
  std::set<std::string> clocks;
  for (const auto& r : c.rows) clocks.insert(short_clock(r));
  std::string legend;
  if (clocks.count("wall")) legend += "; wall = measured";
  if (clocks.count("model"))
    legend += "; model = makespan modelled from thread CPU time (max over processors per phase)";
  if (clocks.count("sim")) legend += "; sim = the simulator's modelled time (no thread ran)";
  out << "n = verified repetitions; median and distribution-free 95 % interval of the ranking "
         "clock"
      << legend
      << "; vs = ratio to the baseline's over paired rounds (geometric mean, 95 % t interval); "
         "binds = "
         "the lower bound no strategy beats: ideal (work spread by speed) or module (the "
         "largest module over the fastest speed); --wide shows both clocks, efficiency, "
         "imbalance, migrations and the workload's counts\n";
  for (const auto& n : c.notes) out << printable(n) << "\n";
}

// Every CSV/JSON field of a row, in order.
JsonRow row_json(const ComparisonRow& r) {
  const ConfigResult& k = *r.config;
  auto clock = [](const stats::SampleSummary& s) {
    return JsonRow{{"median", s.median},
                   {"ci_low", s.ci_low},
                   {"ci_high", s.ci_high},
                   {"ci_level", s.ci_level},
                   {"min", s.min},
                   {"max", s.max},
                   {"cv", s.cv}};
  };
  auto finite = [](double x) { return std::isfinite(x) ? JsonRow(x) : JsonRow(); };
  return {{"workload", k.workload},
          {"label", k.label},
          {"processors", k.processors},
          {"sweep", k.sweep},
          {"n", r.makespan.n},
          {"makespan", clock(r.makespan)},
          {"wall", clock(r.wall)},
          {"ranked_by", clock_name(r.headline)},
          {"modelled_by_replay", r.modelled_by_replay},
          {"ranked", r.eligible},
          {"best", r.best},
          {"verdict", stats::verdict_name(r.verdict)},
          {"compared", stats::method_name(r.method)},
          {"delta", r.delta},
          {"ratio_to_best", finite(r.vs_best.estimate)},
          {"ratio_to_best_low", finite(r.vs_best.low)},
          {"ratio_to_best_high", finite(r.vs_best.high)},
          {"p_vs_best", r.p_vs_best},
          {"baseline", r.baseline},
          {"ratio_to_baseline", finite(r.vs_baseline.estimate)},
          {"ratio_ci_low", finite(r.vs_baseline.low)},
          {"ratio_ci_high", finite(r.vs_baseline.high)},
          {"ideal_s", r.ideal},
          {"largest_module_s", r.largest_module},
          {"bound_binds", r.binds()},
          {"efficiency", r.efficiency},
          {"imbalance", r.imbalance},
          {"migrations", r.migrations},
          {"megabytes_moved", r.megabytes},
          {"balance_s", r.balance},
          {"verified", r.verified},
          {"static", k.static_name},
          {"dynamic", k.dynamic_name},
          {"schedule", k.schedule_name}};
}

}  // namespace

void print_comparison(std::ostream& out, const Comparison& c, OutputFormat format, bool wide) {
  if (format == OutputFormat::kTable)
    return wide ? print_wide_table(out, c) : print_compact_table(out, c);
  std::vector<JsonRow> rows;
  for (const auto& r : c.rows) rows.push_back(row_json(r));
  if (format == OutputFormat::kJson)
    print_json_rows(out, rows);
  else
    print_csv_rows(out, rows);
}

}  // namespace lbb
