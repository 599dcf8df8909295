#include "harness/results/result_writer.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <stdexcept>

#include "harness/results/part_file.h"

namespace lbb {

namespace {

std::string random_tag() {
  std::random_device device;
  char tag[16];
  std::snprintf(tag, sizeof tag, "%06x", device() & 0xFFFFFFu);
  return tag;
}

double env_number(const char* name, double fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  return *end == '\0' && std::isfinite(v) && v >= 0 ? v : fallback;
}

ColumnType value_type(const ResultValue& v) {
  return std::holds_alternative<std::string>(v)    ? ColumnType::kText
         : std::holds_alternative<std::int64_t>(v) ? ColumnType::kInt64
                                                   : ColumnType::kFloat64;
}

void push(Column& c, const ResultValue& v) {
  if (c.type == ColumnType::kText)
    c.text.push_back(as_valid_utf8(std::get<std::string>(v)));
  else if (c.type == ColumnType::kFloat64)
    c.reals.push_back(std::holds_alternative<double>(v)
                          ? std::get<double>(v)
                          : static_cast<double>(std::get<std::int64_t>(v)));
  else
    c.ints.push_back(std::get<std::int64_t>(v));
}

// One row of `attributes`, the schema's columns first in its order.
ColumnTable one_row(const std::string& key, const std::string& id, TableId table,
                    const std::map<std::string, ResultValue>& attributes) {
  ColumnTable row;
  const auto add = [&](std::string_view name, ColumnType type, const ResultValue& v) {
    row.columns.push_back({std::string(name), type, {}, {}, {}, {}, 0});
    push(row.columns.back(), v);
  };
  add(key, ColumnType::kText, id);
  for (const ColumnSpec& c : table_spec(table).columns)
    if (auto it = attributes.find(std::string(c.name)); it != attributes.end())
      add(c.name, c.type, it->second);
  for (const auto& [name, value] : attributes)
    if (!row.find(name)) add(name, value_type(value), value);
  return row;
}

// The runs row of `r`, its id `id`: a column for each field with a value (each kAlways one
// always), then one for each figure, the last of a name counting.
ColumnTable run_row(const std::string& id, RunRecord r) {
  r.run = id;
  ColumnTable row;
  const auto add = [&](std::string_view name, ColumnType type) -> Column& {
    for (Column& c : row.columns)
      if (c.name == name) return c.reals.clear(), c;  // a figure given again
    return row.columns.emplace_back(Column{std::string(name), type, {}, {}, {}, {}, 0});
  };
  for (const ColumnSpec& c : table_spec(TableId::kRuns).columns) {
    const bool always = c.presence == Presence::kAlways;
    std::visit(
        [&](auto member) {
          using M = decltype(member);
          if constexpr (std::is_same_v<M, std::string RunRecord::*>) {
            if (always || !(r.*member).empty())
              add(c.name, c.type).text.push_back(as_valid_utf8(r.*member));
          } else if constexpr (std::is_same_v<M, std::int64_t RunRecord::*>) {
            if (always || r.*member != -1) add(c.name, c.type).ints.push_back(r.*member);
          } else if constexpr (std::is_same_v<M, double RunRecord::*>) {
            if (always || !std::isnan(r.*member)) add(c.name, c.type).reals.push_back(r.*member);
          }
        },
        c.field);
  }
  for (const RunFigure& f : r.figures) {
    const ColumnSpec* spec = find_column(TableId::kRuns, f.name);
    if (!spec || spec->field.index() != 0)
      throw std::logic_error("run figure " + f.name + " is not in the schema as a figure");
    add(f.name, ColumnType::kFloat64).reals.push_back(f.value);
  }
  return row;
}

// The StepRecord value of a steps or procs column; `p` the processor of a procs row.
void push_field(Column& c, const ColumnField& field, const StepRecord& r, std::size_t p) {
  std::visit(
      [&](auto member) {
        using M = decltype(member);
        if constexpr (std::is_same_v<M, double StepRecord::*>)
          c.reals.push_back(r.*member);
        else if constexpr (std::is_same_v<M, std::int64_t StepRecord::*>)
          c.ints.push_back(r.*member);
        else if constexpr (std::is_same_v<M, std::vector<double> StepRecord::*>)
          c.reals.push_back(p < (r.*member).size() ? (r.*member)[p]
                                                   : std::numeric_limits<double>::quiet_NaN());
        else if constexpr (std::is_same_v<M, std::vector<int> StepRecord::*>)
          c.ints.push_back(p < (r.*member).size() ? (r.*member)[p] : -1);
      },
      field);
}

void add_modules(ColumnTable& t, const StepRecord& r, const RunLayout& layout) {
  const std::size_t M = static_cast<std::size_t>(layout.modules);
  const bool phased = layout.phases > 1 && r.phase_module_cost.size() == M * layout.phases;
  const std::size_t F = phased ? static_cast<std::size_t>(layout.phases) : 1;
  const std::vector<double>& cost = phased ? r.phase_module_cost : r.module_cost;
  const std::vector<int>& owner = phased ? r.phase_module_owner : r.module_owner;
  if (cost.size() != F * M) return;
  std::vector<Column>& c = t.columns;  // step, phase, module, cost, owner, start_owner,
  const std::vector<int>& start = r.phase_module_start;  // state_bytes, start_bytes
  const auto bytes = [M](const std::vector<std::uint64_t>& v, std::size_t k) {
    return k % M < v.size() ? static_cast<std::int64_t>(v[k % M]) : std::int64_t{-1};
  };
  for (std::size_t k = 0; k < F * M; ++k) {
    c[0].ints.push_back(r.step);
    c[1].ints.push_back(static_cast<std::int64_t>(k / M));
    c[2].ints.push_back(static_cast<std::int64_t>(k % M));
    c[3].reals.push_back(cost[k]);
    c[4].ints.push_back(k < owner.size() ? owner[k] : -1);
    c[5].ints.push_back(k < start.size() ? start[k] : -1);
    c[6].ints.push_back(bytes(r.module_bytes, k));
    c[7].ints.push_back(bytes(r.module_start_bytes, k));
  }
}

void add_transfers(ColumnTable& t, const StepRecord& r, int phases) {
  std::vector<Column>& c = t.columns;  // step, phase, from, to, bytes
  for (const ModuleTransfer& x : r.transfers) {
    c[0].ints.push_back(r.step);
    c[1].ints.push_back(phases - 1);
    c[2].ints.push_back(x.from);
    c[3].ints.push_back(x.to);
    c[4].reals.push_back(x.bytes);
  }
}

// Whether every row of the table has the column: else the run's layout adds it (a step metric).
bool every_row(const ColumnSpec& c) {
  return c.name != "run" && !c.name.ends_with('*') && c.presence == Presence::kAlways;
}

// A table's columns as the schema gives them (less `run`, added when the rows leave the run).
ColumnTable columns_of(TableId table) {
  ColumnTable t;
  for (const ColumnSpec& c : table_spec(table).columns)
    if (every_row(c)) t.column(c.name, c.type);
  return t;
}

}  // namespace

RunWriter::RunWriter(ResultWriter& set, std::string id, const RunLayout& layout)
    : set_(set),
      id_(std::move(id)),
      layout_(layout),
      steps_(columns_of(TableId::kSteps)),
      procs_(columns_of(TableId::kProcs)) {
  for (const std::string& m : layout_.metrics) steps_.column("metric_" + m, ColumnType::kFloat64);
  if (writes(TableId::kModules)) modules_ = columns_of(TableId::kModules);
  if (writes(TableId::kSpans)) spans_ = columns_of(TableId::kSpans);
  if (writes(TableId::kTransfers)) transfers_ = columns_of(TableId::kTransfers);
}

bool RunWriter::writes(TableId table) const {
  if (table == TableId::kSpans) return layout_.timeline;
  return layout_.record >= table_spec(table).record;
}

void RunWriter::add_spans(std::span<const TimelineSpan> spans) {
  if (ended_) throw std::logic_error("run " + id_ + ": spans after its end");
  if (!writes(TableId::kSpans) || spans.empty()) return;
  std::vector<Column>& c = spans_.columns;  // step, phase, proc, rank, kind, module, start, end
  for (const TimelineSpan& s : spans) {
    c[0].ints.push_back(s.step);
    c[1].ints.push_back(s.phase);
    c[2].ints.push_back(s.proc);
    c[3].ints.push_back(s.rank);
    c[4].text.emplace_back(span_kind_name(s.kind));
    c[5].ints.push_back(s.module);
    c[6].ints.push_back(s.start);
    c[7].ints.push_back(s.end);
  }
}

RunWriter::~RunWriter() {
  const std::lock_guard lock(set_.mutex_);  // a run that never ended is not in flight any more
  if (set_.in_flight_id_ == id_) set_.in_flight_id_.clear();
}

void RunWriter::on_step(const StepRecord& r) {
  if (ended_) throw std::logic_error("run " + id_ + ": a step after its end");
  if (!writes(TableId::kSteps)) return;
  const auto steps_spec = table_spec(TableId::kSteps).columns;
  std::size_t k = 0;
  for (const ColumnSpec& c : steps_spec) {
    if (!every_row(c)) continue;
    Column& col = steps_.columns[k++];
    if (c.name == "step")
      col.ints.push_back(r.step);
    else
      push_field(col, c.field, r, 0);
  }
  for (std::size_t m = 0; m < layout_.metrics.size(); ++m)
    steps_.columns[k + m].reals.push_back(
        m < r.metrics.size() ? r.metrics[m] : std::numeric_limits<double>::quiet_NaN());
  const auto procs_spec = table_spec(TableId::kProcs).columns;
  const std::size_t P = writes(TableId::kProcs) ? static_cast<std::size_t>(layout_.processors) : 0;
  for (std::size_t p = 0; p < P; ++p) {
    std::size_t j = 0;
    for (const ColumnSpec& c : procs_spec) {
      if (c.name == "run") continue;
      Column& col = procs_.columns[j++];
      if (c.name == "step")
        col.ints.push_back(r.step);
      else if (c.name == "proc")
        col.ints.push_back(static_cast<std::int64_t>(p));
      else
        push_field(col, c.field, r, p);
    }
  }
  if (writes(TableId::kModules)) add_modules(modules_, r, layout_);
  if (writes(TableId::kTransfers)) add_transfers(transfers_, r, layout_.phases);
  if (pending_bytes() + set_.pending_bytes_ > set_.budget_) set_.take(*this, nullptr);
}

std::size_t RunWriter::pending_bytes() const {
  std::size_t cells = 0, rows = 0;
  for (const ColumnTable* t : {&steps_, &procs_, &modules_, &spans_, &transfers_}) {
    cells += t->rows() * t->columns.size();
    rows += t->rows();
  }
  return 8 * cells + rows * (id_.size() + 32);
}

void RunWriter::end(const RunRecord& record) {
  if (ended_) return;
  ended_ = true;
  set_.take(*this, &record);
}

ResultWriter::ResultWriter(std::string path, InvocationRecord invocation)
    : path_(std::move(path)),
      writer_(random_tag()),
      budget_(static_cast<std::size_t>(env_number("LBB_RESULTS_BUDGET_MB", kBudgetBytes >> 20))
              << 20),
      interval_(env_number("LBB_RESULTS_PART_SECONDS", kPartSeconds)),
      last_part_(std::chrono::steady_clock::now()) {
  require_set_directory(path_, true);
  std::map<std::string, ResultValue> attributes(invocation.attributes.begin(),
                                                invocation.attributes.end());
  if (invocation.id.empty()) invocation.id = "invocation-" + writer_;
  invocation_ = one_row("invocation", invocation.id, TableId::kInvocations, attributes);
  for (char c : invocation.id)
    stem_ += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  stem_ += "." + writer_;
  require_writable(path_, "." + stem_ + ".probe", kMetadataBytes);
  const std::vector<std::string> stale = remove_stale_temporaries(path_, kStaleSeconds);
  if (!stale.empty())
    std::cerr << "note: " << path_ << ": removed " << stale.size()
              << " temporary files of killed writers (" << stale.front()
              << (stale.size() > 1 ? ", ..." : "") << ")\n";
}

ResultWriter::~ResultWriter() {
  if (finish_failed_) return;  // said already, by whoever called finish()
  try {
    finish();
  } catch (const std::exception& e) {
    std::cerr << "lbbench: results not written to " << path_ << ": " << e.what() << "\n";
  }
}

std::unique_ptr<RunWriter> ResultWriter::begin_run(const RunLayout& layout) {
  char number[24];  // zero-padded: ids sort in the order the runs began
  std::snprintf(number, sizeof number, "%06zu", next_run_++);
  const std::string id = stem_ + "." + number;
  return std::make_unique<RunWriter>(*this, id, layout);
}

void ResultWriter::take(RunWriter& run, const RunRecord* row) {
  const std::lock_guard lock(mutex_);
  if (!failure_.empty()) throw ResultError(failure_);  // nothing more is kept in memory
  const auto move_rows = [&](ColumnTable& from, ColumnTable& into) {
    if (from.rows() == 0) return;
    ColumnTable rows;
    rows.columns.push_back(
        {"run", ColumnType::kText, {}, {}, {}, {{run.id_, from.rows()}}, from.rows()});
    for (Column& c : from.columns) {
      rows.columns.push_back(std::move(c));
      // The run goes on filling it (a hand-over before its end): keep its name and type.
      c = Column{rows.columns.back().name, rows.columns.back().type, {}, {}, {}, {}, 0};
    }
    into.append(std::move(rows));
  };
  pending_bytes_ += run.pending_bytes();
  move_rows(run.steps_, steps_);
  move_rows(run.procs_, procs_);
  move_rows(run.modules_, modules_);
  move_rows(run.spans_, spans_);
  move_rows(run.transfers_, transfers_);
  if (row) runs_.append(run_row(run.id_, *row));
  if (row && in_flight_id_ == run.id_) in_flight_id_.clear();
  const double since =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - last_part_).count();
  if (!row || pending_bytes_ > budget_ || since >= interval_) write_part();
}

void ResultWriter::write_part() {
  if (runs_.rows() == 0 && steps_.rows() == 0) return;
  char seq[16];
  std::snprintf(seq, sizeof seq, "%04d", parts_);
  std::uint64_t reserve = kMetadataBytes;  // the file's own metadata, and the seal
  for (const ColumnTable* t :
       {&runs_, &steps_, &procs_, &modules_, &invocation_, &spans_, &transfers_})
    for (const Column& c : t->columns) {  // raw bytes: deflate never grows them by much
      std::uint64_t width = 8;
      for (const std::string& s : c.text) width = std::max<std::uint64_t>(width, s.size());
      reserve += 1024 + c.rows() * width * 101 / 100;
    }
  try {
    publish_part(path_, stem_ + "." + seq + ".h5", reserve, [&](hid_t file) {
      write_text_attribute(file, "schema", kResultSchemaName);
      write_int_attribute(file, "schema_version", kResultSchemaVersion);
      const ColumnTable* tables[] = {&runs_,       &steps_, &procs_,    &modules_,
                                     &invocation_, &spans_, &transfers_};
      for (const TableSpec& t : result_tables())
        write_table(file, t, *tables[static_cast<int>(t.id)]);
    });
  } catch (const ResultError& e) {
    failure_ = e.what();
    throw;
  }
  failure_.clear();
  ++parts_;
  runs_written_ += runs_.rows();
  runs_ = {}, steps_ = {}, procs_ = {}, modules_ = {}, spans_ = {}, transfers_ = {};
  pending_bytes_ = 0;
  last_part_ = std::chrono::steady_clock::now();
}

void RunWriter::write_header(const RunRecord& header) {
  if (ended_) throw std::logic_error("run " + id_ + ": a header after its end");
  const std::lock_guard lock(set_.mutex_);
  set_.in_flight_id_ = id_;
  set_.in_flight_ = header;
}

ResultWriter::Exit ResultWriter::finish_before_exit(const std::function<void(RunRecord&)>& ending) {
  mutex_.lock();  // never unlocked: the process exits
  const bool in_flight = !in_flight_id_.empty();
  if (in_flight) {
    ending(in_flight_);
    runs_.append(run_row(in_flight_id_, in_flight_));
  }
  write_part();
  return {runs_written_, in_flight};
}

std::string ResultWriter::failure() {
  const std::lock_guard lock(mutex_);
  return failure_;
}

void ResultWriter::finish() {
  const std::lock_guard lock(mutex_);
  finish_failed_ = true;
  write_part();
  finish_failed_ = false;
}

}  // namespace lbb
