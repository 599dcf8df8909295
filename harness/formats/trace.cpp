#include "harness/formats/trace.h"

#include <glob.h>
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/text.h"
#include "harness/formats/csv_trace.h"
#include "harness/formats/vt_datafile.h"

namespace lbb {

namespace {

void check(bool ok, const std::string& where, const std::string& what) {
  if (!ok) throw TraceError(where + ": " + what);
}

// Dense indices of the sorted distinct values.
std::map<std::int64_t, int> numbering(std::vector<std::int64_t> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::map<std::int64_t, int> index;
  for (std::size_t k = 0; k < values.size(); ++k) index.emplace(values[k], static_cast<int>(k));
  return index;
}

// A module's owner in the steps it did not run in: its last one, or before its first run the
// first one.
void fill_owners(Trace& t) {
  for (int m = 0; m < t.modules; ++m) {
    int last = -1;
    for (int s = 0; s < t.steps; ++s) {
      int& o = t.owner[static_cast<std::size_t>(s) * t.modules + m];
      if (o >= 0)
        last = o;
      else
        o = last;
    }
    for (int s = t.steps - 1; s >= 0; --s) {
      int& o = t.owner[static_cast<std::size_t>(s) * t.modules + m];
      if (o >= 0)
        last = o;
      else
        o = last;
    }
  }
}

}  // namespace

double trace_seconds(double v, const std::string& where) {
  check(std::isfinite(v) && v >= 0 && v <= kTraceMaxSeconds, where,
        format_number(v) + " is not a time in [0, " + format_number(kTraceMaxSeconds) +
            "] s (a finite number of seconds)");
  return v;
}

double trace_bytes(double v, const std::string& where) {
  check(std::isfinite(v) && v >= 0 && v < kTraceMaxBytes, where,
        format_number(v) + " is not a byte count in [0, " + format_number(kTraceMaxBytes) + ")");
  return v;
}

double trace_load(double v, const std::string& where) {
  check(std::isfinite(v) && v >= 0 && v <= kTraceMaxLoad, where,
        format_number(v) + " is not an external load level in [0, " + format_number(kTraceMaxLoad) +
            "]");
  return v;
}

void TraceBuilder::task(std::int64_t step, std::int64_t task, double cost, std::int64_t rank,
                        const std::string& where) {
  check(step >= 0, where, "a negative phase or step id");
  check(task >= 0, where, "a negative task id");
  trace_seconds(cost, where + " (a task's time)");
  check(rank >= -1 && rank < kTraceMaxRanks, where,
        "a rank (node, owner) must be in [0, " + std::to_string(kTraceMaxRanks) + ")");
  check(static_cast<std::int64_t>(records_.size()) < kTraceMaxCells, where,
        "more than " + std::to_string(kTraceMaxCells) + " task records");
  records_.push_back({step, task, cost, rank});
}

void TraceBuilder::bytes(std::int64_t step, std::int64_t task, double bytes,
                         const std::string& where, double after) {
  trace_bytes(bytes, where + " (a task's bytes)");
  if (after >= 0) trace_bytes(after, where + " (a task's bytes after the phase)");
  check(static_cast<std::int64_t>(bytes_.size()) < kTraceMaxCells, where, "too many state sizes");
  bytes_[{step, task}] = {bytes, after};
}

void TraceBuilder::start(std::int64_t step, std::int64_t task, std::int64_t rank,
                         const std::string& where) {
  check(rank >= 0 && rank < kTraceMaxRanks, where,
        "a start rank must be in [0, " + std::to_string(kTraceMaxRanks) + ")");
  check(static_cast<std::int64_t>(starts_.size()) < kTraceMaxCells, where, "too many start ranks");
  starts_[{step, task}] = rank;
}

void TraceBuilder::link(std::int64_t a, std::int64_t b, const std::string& where) {
  check(static_cast<std::int64_t>(links_.size()) < kTraceMaxLinks, where,
        "more than " + std::to_string(kTraceMaxLinks) + " communications");
  if (a != b) links_.emplace_back(std::min(a, b), std::max(a, b));
}

void TraceBuilder::declared_link(std::int64_t a, std::int64_t b, const std::string& where) {
  check(static_cast<std::int64_t>(declared_.size()) < kTraceMaxLinks, where,
        "more than " + std::to_string(kTraceMaxLinks) + " links");
  if (a != b) declared_.emplace_back(std::min(a, b), std::max(a, b));
}

// Each task's size while it ran in each step, and after it: as said, else the size the next
// step says, else the last one known (a task of one size throughout leaves step_bytes empty).
void TraceBuilder::state_sizes(const std::map<std::int64_t, int>& step_index,
                               const std::map<std::int64_t, int>& task_index, Trace& t) const {
  const std::size_t cells = static_cast<std::size_t>(t.steps) * t.modules;
  std::vector<double> during(cells, -1), after(cells, -1);
  for (const auto& [key, size] : bytes_) {
    const auto s = step_index.find(key.first);
    const auto m = task_index.find(key.second);
    if (s == step_index.end() || m == task_index.end()) continue;
    const std::size_t cell = static_cast<std::size_t>(s->second) * t.modules + m->second;
    during[cell] = size.first;
    after[cell] = size.second;
  }
  t.bytes.assign(t.modules, 0.0);
  std::vector<double> ends(cells, 0.0);
  bool varies = false;
  for (int m = 0; m < t.modules; ++m) {
    double now = -1;
    for (int s = 0; s < t.steps && now < 0; ++s) now = during[std::size_t(s) * t.modules + m];
    t.bytes[m] = now = std::max(now, 0.0);
    for (int s = 0; s < t.steps; ++s) {
      const std::size_t cell = static_cast<std::size_t>(s) * t.modules + m;
      if (during[cell] >= 0) now = during[cell];
      if (after[cell] >= 0)
        now = after[cell];
      else if (s + 1 < t.steps && during[cell + t.modules] >= 0)
        now = during[cell + t.modules];
      ends[cell] = now;
      varies = varies || now != t.bytes[m];
    }
  }
  if (varies) t.step_bytes = std::move(ends);
}

void TraceBuilder::message(std::int64_t step, std::int64_t from, std::int64_t to,
                           std::int64_t messages, double bytes, const std::string& where) {
  check(messages >= 0, where, "a negative message count");
  trace_bytes(bytes, where + " (a communication's bytes)");
  link(from, to, where);
  messages_.push_back({step, from, to, messages, bytes});
}

void TraceBuilder::subphases(std::int64_t step, std::int64_t task, std::vector<TraceSubphase> s,
                             const std::string& where) {
  for (const TraceSubphase& p : s) trace_seconds(p.time, where + " (a subphase's time)");
  check(static_cast<std::int64_t>(subphases_.size()) < kTraceMaxCells, where, "too many subphases");
  subphases_[{step, task}] = std::move(s);
}

void TraceBuilder::speeds(std::vector<double> speeds, const std::string& where) {
  check(!speeds.empty() && static_cast<std::int64_t>(speeds.size()) <= kTraceMaxRanks, where,
        "speeds must list one speed per rank");
  for (double v : speeds)
    check(std::isfinite(v) && v > 0 && v <= 1e6, where, "a speed in (0, 1e6]");
  check(speeds_.empty() || speeds_ == speeds, where, "speeds differ from another file's");
  speeds_ = std::move(speeds);
}

void TraceBuilder::load(std::int64_t step, std::int64_t task, double level,
                        const std::string& where) {
  trace_load(level, where);
  check(static_cast<std::int64_t>(loads_.size()) < kTraceMaxCells, where, "too many load levels");
  loads_[{step, task}] = level;
}

void TraceBuilder::busy(std::int64_t step, std::int64_t rank, double seconds,
                        const std::string& where) {
  trace_seconds(seconds, where + " (busy)");
  check(rank >= 0 && rank < kTraceMaxRanks, where, "busy of a rank out of range");
  check(static_cast<std::int64_t>(busy_.size()) < kTraceMaxCells, where, "too many busy times");
  busy_[{step, rank}] = seconds;
}

void TraceBuilder::phases_per_step(std::int64_t phases, const std::string& where) {
  check(phases >= 1 && phases <= kTraceMaxPhasesPerStep, where,
        "phases_per_step must be in [1, " + std::to_string(kTraceMaxPhasesPerStep) + "]");
  check(phases_per_step_ == 0 || phases_per_step_ == phases, where,
        "phases_per_step " + std::to_string(phases) + " where another file says " +
            std::to_string(phases_per_step_));
  phases_per_step_ = static_cast<int>(phases);
}

Trace TraceBuilder::build() const {
  if (records_.empty()) throw TraceError(source_ + ": no tasks in any phase");
  std::vector<std::int64_t> steps, tasks;
  std::int64_t ranks = 0, unplaced = 0;
  for (const Record& r : records_) {
    steps.push_back(r.step);
    tasks.push_back(r.task);
    ranks = std::max(ranks, r.rank + 1);
    unplaced += r.rank < 0;
  }
  if (unplaced > 0 && unplaced < static_cast<std::int64_t>(records_.size()))
    throw TraceError(source_ + ": owners are given for some tasks only");
  const std::map<std::int64_t, int> step_index = numbering(std::move(steps));
  const std::map<std::int64_t, int> task_index = numbering(std::move(tasks));
  Trace t;
  t.steps = static_cast<int>(step_index.size());
  t.modules = static_cast<int>(task_index.size());
  t.ranks = static_cast<int>(ranks);
  if (static_cast<std::int64_t>(t.steps) * t.modules > kTraceMaxCells)
    throw TraceError(source_ + ": " + std::to_string(t.steps) + " phases x " +
                     std::to_string(t.modules) + " tasks is more than " +
                     std::to_string(kTraceMaxCells) + " cells");
  t.phases_per_step = std::max(phases_per_step_, 1);
  if (t.steps % t.phases_per_step != 0)
    throw TraceError(source_ + ": " + std::to_string(t.steps) + " phases are not whole steps of " +
                     std::to_string(t.phases_per_step) + " phases (phases_per_step)");
  const std::size_t cells = static_cast<std::size_t>(t.steps) * t.modules;
  t.cost.assign(cells, 0.0);
  t.owner.assign(cells, -1);
  std::vector<char> seen(cells, 0);
  for (const Record& r : records_) {
    const std::size_t cell =
        static_cast<std::size_t>(step_index.at(r.step)) * t.modules + task_index.at(r.task);
    if (seen[cell])
      throw TraceError(source_ + ": task " + std::to_string(r.task) + " appears twice in phase " +
                       std::to_string(r.step));
    seen[cell] = 1;
    if (!speeds_.empty() && r.rank >= static_cast<std::int64_t>(speeds_.size()))
      throw TraceError(source_ + ": task " + std::to_string(r.task) + " on rank " +
                       std::to_string(r.rank) + ", past the " + std::to_string(speeds_.size()) +
                       " ranks the speeds name");
    t.cost[cell] = r.cost;
    t.owner[cell] = static_cast<int>(r.rank);
  }
  if (unplaced > 0)
    t.owner.clear();  // none recorded: the run starts from its partition
  else
    fill_owners(t);
  for (const auto& [id, m] : task_index) t.task_id.push_back(id);
  state_sizes(step_index, task_index, t);
  if (!starts_.empty() && !t.owner.empty()) {
    t.start_owner = t.owner;
    for (const auto& [key, rank] : starts_) {
      const auto s = step_index.find(key.first);
      const auto m = task_index.find(key.second);
      if (s != step_index.end() && m != task_index.end())
        t.start_owner[static_cast<std::size_t>(s->second) * t.modules + m->second] =
            static_cast<int>(rank);
    }
  }
  t.neighbours.resize(t.modules);
  for (const auto& [a, b] : declared_.empty() ? links_ : declared_) {
    const auto ia = task_index.find(a), ib = task_index.find(b);
    if (ia == task_index.end() || ib == task_index.end()) continue;  // not a task: a node
    t.neighbours[ia->second].push_back(ib->second);
    t.neighbours[ib->second].push_back(ia->second);
  }
  for (auto& n : t.neighbours) {
    std::sort(n.begin(), n.end());
    n.erase(std::unique(n.begin(), n.end()), n.end());
  }
  t.busy = busy_times(step_index, t.ranks);
  place(task_index, t);
  external_loads(step_index, task_index, t);
  keep_vt_fields(step_index, task_index, t);
  return t;
}

// The cells' load levels where some task ran under load (levels of 0 only: none).
void TraceBuilder::external_loads(const std::map<std::int64_t, int>& step_index,
                                  const std::map<std::int64_t, int>& task_index, Trace& t) const {
  for (const auto& [key, level] : loads_) {
    const auto s = step_index.find(key.first);
    const auto m = task_index.find(key.second);
    if (level == 0 || s == step_index.end() || m == task_index.end()) continue;
    if (t.load.empty()) t.load.assign(static_cast<std::size_t>(t.steps) * t.modules, 0.0);
    t.load[static_cast<std::size_t>(s->second) * t.modules + m->second] = level;
  }
}

// What lbbench does not use but carries to the export: entities, messages with their bytes,
// subphases, shared nodes and the speeds. Messages of tasks that never ran are left out.
void TraceBuilder::keep_vt_fields(const std::map<std::int64_t, int>& step_index,
                                  const std::map<std::int64_t, int>& task_index, Trace& t) const {
  t.speeds = speeds_;
  t.entity.resize(t.modules);
  for (const auto& [id, e] : entities_)
    if (auto it = task_index.find(id); it != task_index.end()) t.entity[it->second] = e;
  for (const Message& m : messages_) {
    const auto s = step_index.find(m.step);
    const auto a = task_index.find(m.from), b = task_index.find(m.to);
    if (s == step_index.end() || a == task_index.end() || b == task_index.end()) continue;
    t.messages.push_back({s->second, a->second, b->second, m.messages, m.bytes});
  }
  std::stable_sort(t.messages.begin(), t.messages.end(),
                   [](const TraceMessage& x, const TraceMessage& y) { return x.step < y.step; });
  for (const auto& [key, list] : subphases_) {
    const auto s = step_index.find(key.first);
    const auto m = task_index.find(key.second);
    if (s != step_index.end() && m != task_index.end())
      t.subphases[static_cast<std::size_t>(s->second) * t.modules + m->second] = list;
  }
  for (const auto& [rank, node] : shared_nodes_)
    if (rank >= 0 && rank < t.ranks) t.shared_node[static_cast<int>(rank)] = node;
}

void TraceBuilder::coords(std::int64_t task, std::vector<double> centre, const std::string& where) {
  check(!centre.empty() && centre.size() <= 3, where, "coords must have 1 to 3 numbers");
  for (double x : centre) check(std::isfinite(x), where, "coords must be finite numbers");
  check(static_cast<std::int64_t>(coords_.size()) < kTraceMaxCells, where, "too many coords");
  coords_[task] = std::move(centre);
}

// The structure, and the centres when every module has them in the same dimensions (a spatial
// structure without them is none).
void TraceBuilder::place(const std::map<std::int64_t, int>& task_index, Trace& t) const {
  t.structure = structure_;
  const std::size_t d = coords_.empty() ? 0 : coords_.begin()->second.size();
  bool complete = d > 0;
  for (const auto& [id, m] : task_index) {
    const auto it = coords_.find(id);
    complete = complete && it != coords_.end() && it->second.size() == d;
  }
  if (complete) {
    t.dimensions = static_cast<int>(d);
    for (const auto& [id, m] : task_index)
      t.coords.insert(t.coords.end(), coords_.at(id).begin(), coords_.at(id).end());
  } else if (t.structure == ModuleStructure::kSpatial) {
    t.structure = ModuleStructure::kIndependent;
  }
}

// Every rank's busy time of every step, or none.
std::vector<double> TraceBuilder::busy_times(const std::map<std::int64_t, int>& step_index,
                                             int ranks) const {
  const std::size_t cells = step_index.size() * static_cast<std::size_t>(ranks);
  if (busy_.size() != cells) return {};
  std::vector<double> busy(cells, 0.0);
  for (const auto& [key, seconds] : busy_) {
    const auto s = step_index.find(key.first);
    if (s == step_index.end() || key.second >= ranks) return {};
    busy[static_cast<std::size_t>(s->second) * ranks + key.second] = seconds;
  }
  return busy;
}

std::vector<std::string> trace_files(const std::string& pattern) {
  std::vector<std::string> files;
  std::error_code ec;
  if (std::filesystem::is_directory(pattern, ec)) {
    for (const char* ext : {".json", ".csv"}) {
      for (const auto& e : std::filesystem::directory_iterator(pattern, ec))
        if (e.is_regular_file() && e.path().extension() == ext) files.push_back(e.path());
      if (!files.empty()) break;
    }
  } else {
    glob_t g{};
    if (glob(pattern.c_str(), 0, nullptr, &g) == 0)
      for (std::size_t k = 0; k < g.gl_pathc; ++k) files.emplace_back(g.gl_pathv[k]);
    globfree(&g);
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw TraceError(pattern + ": no trace files (*.json or *.csv) match");
  return files;
}

Trace read_trace(const std::string& pattern, const std::string& format) {
  const std::vector<std::string> files = trace_files(pattern);
  TraceBuilder builder(pattern);
  for (const std::string& file : files) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (ec) throw TraceError(file + ": " + ec.message());
    if (size > kTraceMaxFileBytes)
      throw TraceError(file + ": " + std::to_string(size) + " bytes, more than the " +
                       std::to_string(kTraceMaxFileBytes) + " a trace file may have");
    const bool csv = format == "csv" || (format == "auto" && file.ends_with(".csv"));
    if (csv)
      read_csv_trace(file, builder);
    else
      read_vt_file(file, builder);
  }
  return builder.build();
}

}  // namespace lbb
