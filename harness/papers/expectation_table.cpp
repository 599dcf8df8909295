// The expectation table `lbbench expect` and `lbbench run` print, and its per-config summary.
#include <algorithm>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>

#include "core/text.h"
#include "harness/papers/expectation_verdicts.h"

namespace lbb {

VerdictSummary summarize_verdicts(const std::vector<ExpectationResult>& results) {
  VerdictSummary s;
  for (const ExpectationResult& r : results) {
    if (r.kind == VerdictKind::kContext) {
      ++s.context;
      continue;
    }
    if (!r.counted) {
      ++s.open_choices;
      continue;
    }
    switch (r.kind) {
      case VerdictKind::kExact:
        ++s.exact;
        break;
      case VerdictKind::kHolds:
        ++s.holds;
        break;
      case VerdictKind::kTied:
        ++s.tied;
        break;
      case VerdictKind::kDiffers:
        ++s.differs, s.differing.push_back(&r);
        break;
      case VerdictKind::kNoRuns:
        ++s.no_runs;
        break;
      case VerdictKind::kNotBuilt:
        ++s.not_built;
        break;
      case VerdictKind::kContext:
        break;
    }
  }
  return s;
}

namespace {

std::string paper_cell(const Expectation& e) {
  if (e.paper) return format_number(*e.paper, 4);
  if (e.rank) return "rank " + format_number(*e.rank, 3);
  return "-";
}

// The value's tolerance: "+-0.005" (the paper's printed precision), "+-0.025*" (stated, listed
// below the table), "bound" or "-" (an order only).
std::string tolerance_cell(const ExpectationResult& r) {
  const Expectation& e = *r.expectation;
  if (!e.paper || !e.not_built.empty()) return "-";
  if (!e.bound.empty()) return "bound";
  return "+-" + format_number(value_tolerance(e), 3) + (e.tolerance ? "*" : "");
}

// The stated tolerances' sources, and each open choice once with the rows resting on it.
void print_notes(std::ostream& out, const std::vector<ExpectationResult>& results) {
  out << "+-: half a unit of the paper's last printed digit; * stated:\n";
  for (const ExpectationResult& r : results)
    if (r.expectation->tolerance)
      out << "  * " << printable(r.expectation->row) << ": "
          << printable(r.expectation->tolerance_source) << "\n";
  std::map<std::string, int> choices;
  for (const ExpectationResult& r : results)
    if (!r.expectation->open_choice.empty()) ++choices[r.expectation->open_choice];
  for (const auto& [choice, rows] : choices)
    out << "open choice (" << rows << (rows > 1 ? " rows" : " row")
        << " judged, not counted): " << printable(choice) << "\n";
}

// The counts, then each cause of the differing rows once with the rows it explains.
void print_summary(std::ostream& out, const VerdictSummary& s) {
  out << "verdicts: " << s.exact << " exact, " << s.holds << " holds, " << s.tied << " tied, "
      << s.differs << " differ, " << s.no_runs << " without runs, " << s.not_built
      << " not built; not counted: " << s.context << " context, " << s.open_choices
      << " open choices\n";
  std::vector<std::pair<std::string, std::string>> causes;  // cause, its rows; in first order
  for (const ExpectationResult* r : s.differing) {
    const std::string cause =
        r->expectation->cause.empty() ? "no cause stated" : printable(r->expectation->cause);
    auto it =
        std::find_if(causes.begin(), causes.end(), [&](const auto& c) { return c.first == cause; });
    if (it == causes.end()) it = causes.insert(causes.end(), {cause, ""});
    it->second += (it->second.empty() ? "" : "; ") + printable(r->expectation->row);
  }
  for (const auto& [cause, rows] : causes) out << "  differs, " << cause << ": " << rows << "\n";
}

}  // namespace

void print_expectations(std::ostream& out, const std::vector<ExpectationResult>& results) {
  std::size_t wr = 3, wm = 6;
  for (const auto& r : results) {
    wr = std::max(wr, printable(r.expectation->row).size());
    wm = std::max(wm, r.expectation->metric.size());
  }
  out << std::left << std::setw(static_cast<int>(wr)) << "row"
      << "  " << std::setw(static_cast<int>(wm)) << "metric" << std::right << std::setw(10)
      << "measured" << std::setw(20) << "min-max (runs)" << std::setw(10) << "paper"
      << std::setw(11) << "+-"
      << "  verdict\n";
  for (const auto& r : results) {
    std::ostringstream range;
    if (r.measured) range << format_number(r.low, 3) << "-" << format_number(r.high, 3);
    range << " (" << r.runs << ")";
    out << std::left << std::setw(static_cast<int>(wr)) << printable(r.expectation->row) << "  "
        << std::setw(static_cast<int>(wm)) << r.expectation->metric << std::right << std::setw(10)
        << (r.measured ? format_number(*r.measured, 4) : "-") << std::setw(20) << range.str()
        << std::setw(10) << paper_cell(*r.expectation) << std::setw(11) << tolerance_cell(r) << "  "
        << r.verdict << "\n";
  }
  print_notes(out, results);
  print_summary(out, summarize_verdicts(results));
}

}  // namespace lbb
