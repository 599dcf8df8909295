#pragma once
// A load trace read from another tool's files (vt's LBDatafile JSON, or a plain CSV): tasks'
// costs step by step, where each ran, how many bytes a move of it copies and which tasks talk to
// which. Readers hand it records one at a time; TraceBuilder checks them and caps the sizes
// before anything of the trace's claimed size is allocated, so a hostile file gets a clear
// TraceError, never memory exhaustion.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/module_structure.h"

namespace lbb {

class TraceError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Caps on what a trace may claim (a file of these sizes is far past any recorded run).
inline constexpr std::int64_t kTraceMaxCells = std::int64_t(1) << 24;  // steps x tasks
inline constexpr std::int64_t kTraceMaxRanks = 1 << 20;
inline constexpr std::int64_t kTraceMaxLinks = std::int64_t(1) << 24;
inline constexpr std::uintmax_t kTraceMaxFileBytes = std::uintmax_t(1) << 27;  // each file
inline constexpr int kTraceMaxDepth = 16;               // JSON nesting; vt's files nest 6 deep
inline constexpr int kTraceMaxPhasesPerStep = 1 << 10;  // a step's phases (TRFD has 2)

// Bounds on a trace's numbers, far past any recorded run: a time (a task's in one phase, a rank's
// busy time) is finite in [0, kTraceMaxSeconds] s, about 11.6 days; bytes (a task's state, a
// communication's) are finite in [0, kTraceMaxBytes), a petabyte. 1e30 s, 2^64 s, -1 or 1e30
// bytes are refused, never simulated.
inline constexpr double kTraceMaxSeconds = 1e6;
inline constexpr double kTraceMaxBytes = 1e15;
// An external load level L is finite in [0, kTraceMaxLoad], platform.external_load's largest m.
inline constexpr double kTraceMaxLoad = 1e3;

// `v` when it is such a time (bytes), else a TraceError "WHERE: ..." (`where` names the file and
// the field).
double trace_seconds(double v, const std::string& where);
double trace_bytes(double v, const std::string& where);
// `v` when it is an external load level in [0, kTraceMaxLoad], else a TraceError "WHERE: ...".
double trace_load(double v, const std::string& where);

// vt's entity of a task besides its id, carried from an import to its export unchanged.
struct TraceEntity {
  std::int64_t home = -1;           // -1: not given (the export writes the first owner)
  std::int64_t collection_id = -1;  // -1: none
  std::vector<std::int64_t> index;  // the collection index; empty: none
  bool seq_id = false;              // the id is vt's seq_id, not its bit-encoded id
  bool migratable = true;           // false: no balancer moves it (LoadView::migratable)
};

// A communication between two tasks in one trace step: vt's SendRecv edge from -> to.
struct TraceMessage {
  int step = 0, from = 0, to = 0;  // trace step, modules
  std::int64_t messages = 1;
  double bytes = 0;
};

// One of vt's subphases of a task in a phase.
struct TraceSubphase {
  std::int64_t id = 0;
  double time = 0;
};

// vt's metadata.shared_node of a rank: the ranks sharing its node.
struct TraceSharedNode {
  std::int64_t id = 0, size = 0, rank = 0, num_nodes = 0;
};

struct Trace {
  int steps = 0, modules = 0, ranks = 0;  // ranks: processors of the recording
  // A run's steps of F phases, each balanced on its own, are F trace steps each: trace step
  // s F + f is phase f of step s (steps is a multiple of F).
  int phases_per_step = 1;
  std::vector<std::int64_t> task_id;  // module m is task task_id[m] (ascending)
  std::vector<double> cost;   // [step * modules + m], s on its owner; 0 where it did not run
  std::vector<int> owner;     // [step * modules + m], the rank it ran on; empty: not recorded
  std::vector<double> bytes;  // [m], what a move copies at the start (0: not recorded)
  // [step * modules + m]: its state's bytes at the end of trace step `step` (what a move after
  // it copies); empty: always bytes[m] (sizes change where bodies cross cells)
  std::vector<double> step_bytes;
  // [step * modules + m]: the rank it was on when the step began, before an in-step balancer
  // moved it (vt records where it ran: owner); empty: owner
  std::vector<int> start_owner;
  std::vector<double> busy;                  // [step * ranks + r] when recorded (lbbench's export)
  std::vector<std::vector<int>> neighbours;  // [m], modules it exchanges data with
  // What the module order means to balancers, and the modules' centres (dimensions per module;
  // empty: none), as lbbench's export records them.
  ModuleStructure structure = ModuleStructure::kIndependent;
  int dimensions = 0;
  std::vector<double> coords;
  // The recording's speeds, one per rank (vt: the metadata's attributes.speeds; empty: none
  // recorded, all 1): a cost is the time on a rank of that speed.
  std::vector<double> speeds;
  // [step * modules + m]: the external load level L its owner had when it ran (vt: the task's
  // attributes.external_load), so its cost is (1 + L) times the load-free one; empty: none.
  std::vector<double> load;
  std::vector<TraceEntity> entity;                              // [m]
  std::vector<TraceMessage> messages;                           // in trace step order
  std::map<std::size_t, std::vector<TraceSubphase>> subphases;  // [step * modules + m]
  std::map<int, TraceSharedNode> shared_node;                   // [rank], where recorded

  // A cell's cost at speed 1 without external load (the recorded time x its rank's recorded
  // speed / (1 + L)): what a simulation of the trace starts from, whatever platform it runs on.
  double nominal(std::size_t cell) const {
    const double speed = speeds.empty() || owner.empty() ? 1.0 : speeds[owner[cell]];
    return cost[cell] * speed / (1.0 + (load.empty() ? 0.0 : load[cell]));
  }
};

// Collects (step, task) records in any order; build() numbers tasks and steps densely in
// ascending order of their ids, so neither a huge id nor gaps allocate anything.
class TraceBuilder {
 public:
  explicit TraceBuilder(std::string source) : source_(std::move(source)) {}
  // One task's cost in one step on `rank` (-1: not recorded, for every task or none); `where`
  // names the record in messages.
  void task(std::int64_t step, std::int64_t task, double cost, std::int64_t rank,
            const std::string& where);
  // A task's state bytes while it ran in `step`, and (after >= 0) at the step's end.
  void bytes(std::int64_t step, std::int64_t task, double bytes, const std::string& where,
             double after = -1);
  // Where the task was when `step` began (an in-step balancer then moved it to where it ran).
  void start(std::int64_t step, std::int64_t task, std::int64_t rank, const std::string& where);
  // A link of the communication graph as the files declare it (lbbench's export: a task's
  // neighbours); where any is declared, communications add none.
  void declared_link(std::int64_t a, std::int64_t b, const std::string& where);
  void link(std::int64_t a, std::int64_t b, const std::string& where);
  // A communication from -> to in `step`; also a link.
  void message(std::int64_t step, std::int64_t from, std::int64_t to, std::int64_t messages,
               double bytes, const std::string& where);
  void entity(std::int64_t task, TraceEntity e) { entities_[task] = std::move(e); }
  void subphases(std::int64_t step, std::int64_t task, std::vector<TraceSubphase> s,
                 const std::string& where);
  void shared_node(std::int64_t rank, TraceSharedNode n) { shared_nodes_[rank] = n; }
  // The recording's speeds, one per rank (every file that says so must say the same).
  void speeds(std::vector<double> speeds, const std::string& where);
  // The external load level its rank had while the task ran in `step`.
  void load(std::int64_t step, std::int64_t task, double level, const std::string& where);
  void busy(std::int64_t step, std::int64_t rank, double seconds, const std::string& where);
  void structure(ModuleStructure s) { structure_ = s; }
  // The trace's phases are steps of `phases` phases each (lbbench's export of a run of several
  // phases); every file that says so must say the same.
  void phases_per_step(std::int64_t phases, const std::string& where);
  void coords(std::int64_t task, std::vector<double> centre, const std::string& where);
  Trace build() const;

 private:
  std::vector<double> busy_times(const std::map<std::int64_t, int>& step_index, int ranks) const;
  void place(const std::map<std::int64_t, int>& task_index, Trace& t) const;
  struct Record {
    std::int64_t step, task;
    double cost;
    std::int64_t rank;
  };
  std::string source_;
  std::vector<Record> records_;
  void state_sizes(const std::map<std::int64_t, int>& step_index,
                   const std::map<std::int64_t, int>& task_index, Trace& t) const;
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<double, double>> bytes_;  // (step,
  // task): (while it ran, after; -1: not said)
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> starts_;  // (step, task): rank
  std::vector<std::pair<std::int64_t, std::int64_t>> links_;      // (a < b), repeats allowed
  std::vector<std::pair<std::int64_t, std::int64_t>> declared_;   // (a < b), repeats allowed
  std::map<std::pair<std::int64_t, std::int64_t>, double> busy_;  // (step, rank)
  ModuleStructure structure_ = ModuleStructure::kIndependent;
  int phases_per_step_ = 0;  // 0: not said (1)
  std::map<std::int64_t, std::vector<double>> coords_;
  struct Message {
    std::int64_t step, from, to, messages;
    double bytes;
  };
  std::vector<Message> messages_;
  std::map<std::int64_t, TraceEntity> entities_;
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<TraceSubphase>> subphases_;
  std::map<std::int64_t, TraceSharedNode> shared_nodes_;
  std::vector<double> speeds_;
  std::map<std::pair<std::int64_t, std::int64_t>, double> loads_;  // (step, task): L
  void external_loads(const std::map<std::int64_t, int>& step_index,
                      const std::map<std::int64_t, int>& task_index, Trace& t) const;
  void keep_vt_fields(const std::map<std::int64_t, int>& step_index,
                      const std::map<std::int64_t, int>& task_index, Trace& t) const;
};

// The files of one trace: a directory (every *.json, else every *.csv, in it), a file, or a
// glob of files. Throws TraceError when none match.
std::vector<std::string> trace_files(const std::string& pattern);
// vt's LBDatafile set or a CSV file (by their names: *.json or *.csv); format "auto", "vt" or
// "csv".
Trace read_trace(const std::string& pattern, const std::string& format = "auto");

}  // namespace lbb
