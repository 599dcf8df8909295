#include "harness/comparison_table.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "core/text.h"

namespace lbb {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Row {
  const RunSpec* spec = nullptr;
  int reps = 0;
  double makespan = 0, wall = 0, ideal = 0, efficiency = 0, imbalance = 0, migrations = 0,
         megabytes = 0, balance = 0;
  std::string verified;
  bool best = false;
  std::string attributes;  // the workload's run attributes, "name=value ..." (medians)
};

}  // namespace

void print_comparison(std::ostream& out, const std::vector<RunOutcome>& outcomes) {
  std::vector<Row> rows;
  std::map<const RunSpec*, std::vector<const RunOutcome*>> by_spec;
  std::vector<const RunSpec*> order;
  for (const auto& o : outcomes) {
    if (!by_spec.count(o.spec)) order.push_back(o.spec);
    by_spec[o.spec].push_back(&o);
  }
  for (const RunSpec* spec : order) {
    Row r;
    r.spec = spec;
    std::vector<double> mk, wl, id, ef, im, mg, mb, bl;
    std::vector<std::pair<std::string, std::vector<double>>> attrs;
    int passed = 0;
    std::string error;
    for (const RunOutcome* o : by_spec[spec]) {
      ++r.reps;
      if (!o->error.empty()) {
        error = o->error;
        continue;
      }
      if (o->verification.passed) ++passed;
      const RunSummary& s = o->summary;
      mk.push_back(s.makespan);
      wl.push_back(s.wall);
      id.push_back(s.ideal);
      ef.push_back(s.efficiency());
      im.push_back(s.imbalance);
      mg.push_back(static_cast<double>(s.migrations));
      mb.push_back(s.bytes_moved / 1e6);
      bl.push_back(s.balance);
      for (const auto& a : o->attributes) {
        auto it = std::find_if(attrs.begin(), attrs.end(),
                               [&](const auto& x) { return x.first == a.name; });
        if (it == attrs.end()) it = attrs.insert(attrs.end(), {a.name, {}});
        it->second.push_back(a.value);
      }
    }
    for (const auto& [name, values] : attrs)
      r.attributes += "  " + name + "=" + format_number(median(values), 7);
    r.makespan = median(mk);
    r.wall = median(wl);
    r.ideal = median(id);
    r.efficiency = median(ef);
    r.imbalance = median(im);
    r.migrations = median(mg);
    r.megabytes = median(mb);
    r.balance = median(bl);
    r.verified = !error.empty()     ? "FAILED: " + error
                 : passed == r.reps ? "yes"
                                    : "NO (" + std::to_string(r.reps - passed) + ")";
    rows.push_back(r);
  }
  // Best modelled makespan within each workload / processors / sweep group.
  std::map<std::string, std::size_t> best;
  auto group = [](const RunSpec* s) {
    return s->workload + "|" + std::to_string(s->processors) + "|" + s->sweep_label;
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].verified != "yes") continue;
    auto [it, fresh] = best.try_emplace(group(rows[i].spec), i);
    if (!fresh && rows[i].makespan < rows[it->second].makespan) it->second = i;
  }
  for (const auto& [g, i] : best) rows[i].best = true;

  std::size_t wb = 8, ws = 5;
  for (const auto& r : rows) {
    wb = std::max(wb, r.spec->balancer.label.size() + 2);
    ws = std::max(ws, r.spec->sweep_label.size());
  }
  const bool any_sweep = std::any_of(rows.begin(), rows.end(),
                                     [](const Row& r) { return !r.spec->sweep_label.empty(); });
  out << std::left << std::setw(20) << "workload" << std::right << std::setw(4) << "P"
      << "  " << std::left << std::setw(static_cast<int>(wb)) << "balancer";
  if (any_sweep) out << std::setw(static_cast<int>(ws) + 2) << "sweep";
  out << std::right << std::setw(12) << "makespan_s" << std::setw(10) << "wall_s" << std::setw(10)
      << "ideal_s" << std::setw(7) << "eff" << std::setw(8) << "imbal" << std::setw(9) << "migr"
      << std::setw(10) << "MB_moved" << std::setw(11) << "balance_s"
      << "  "
      << "verified\n";
  for (const auto& r : rows) {
    out << std::left << std::setw(20) << r.spec->workload << std::right << std::setw(4)
        << r.spec->processors << "  " << std::left << std::setw(static_cast<int>(wb))
        << ((r.best ? "*" : " ") + r.spec->balancer.label);
    if (any_sweep) out << std::setw(static_cast<int>(ws) + 2) << r.spec->sweep_label;
    out << std::right << std::fixed << std::setprecision(4) << std::setw(12) << r.makespan
        << std::setw(10) << r.wall << std::setw(10) << r.ideal << std::setprecision(3)
        << std::setw(7) << r.efficiency << std::setw(8) << r.imbalance << std::setprecision(0)
        << std::setw(9) << r.migrations << std::setprecision(2) << std::setw(10) << r.megabytes
        << std::setprecision(5) << std::setw(11) << r.balance << "  " << r.verified;
    // A few attributes (tree counts) stay on the row; long lists go on an indented line.
    if (r.attributes.size() <= 120)
      out << r.attributes << "\n";
    else
      out << "\n" << std::string(24, ' ') << "^" << r.attributes << "\n";
  }
  out.unsetf(std::ios::floatfield);
  if (!rows.empty())
    out << "medians over " << rows.front().reps
        << " repetition(s); makespan = modelled from thread CPU time (per phase, max over "
           "processors of busy + balance + migration; plus serial work), summed over steps; "
           "wall = measured; "
           "eff = ideal / makespan; imbal = mean over steps of max/mean busy - 1; * = best "
           "makespan in its group\n";
}

}  // namespace lbb
