// libFuzzer target for the step journal's reader and recovery (step_journal.h,
// journal_recovery.h). The input does not become the journal's bytes (a random byte string
// rarely passes the magic and checksum); it chooses records that JournalWriter frames: the
// template run's ids, layout and rows or others, row numbers and row counts of any size, columns
// mistyped, missing or of the wrong length, headers and ends with attributes of any name and
// type, and at last a cut or a flipped byte. The journal lies beside a template archive holding
// one partial run with two steps; it is scanned and inspected, and folded into a copy of the
// archive when inspection accepts it. Any outcome but a report or an h5::Error is a finding.
#include <fuzzer/FuzzedDataProvider.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "harness/archive/archive.h"
#include "harness/archive/journal_recovery.h"
#include "harness/archive/step_journal.h"

namespace {

namespace fs = std::filesystem;

struct Template {
  std::string dir, archive, work;
  lbb::JournalRecord step;  // the run's third step as its writer journaled it
};

lbb::StepRecord step_record(int step) {
  lbb::StepRecord r;
  r.step = step;
  r.wall = 1.0 + step;
  r.busy = {0.5, 0.25};
  r.metrics = {0.5};
  return r;
}

// An archive with one partial run whose steps 0 and 1 are committed, and that run's journal
// record of step 2 (its columns are the layout the fuzzer varies).
Template make_template() {
  Template t;
  t.dir = "/tmp/lbb_fuzz_journal_" + std::to_string(getpid());
  fs::create_directories(t.dir);
  t.archive = t.dir + "/template.h5";
  t.work = t.dir + "/work.h5";
  const std::string source = t.dir + "/source.h5";
  fs::remove(source);
  setenv("LBB_ARCHIVE_COMMIT_SECONDS", "100000", 1);
  {
    lbb::ArchiveWriter writer(source);
    auto run = writer.begin_run({"x", 2, 2, true, {"residual"}});
    run->set_text("status", "partial");
    run->set_text("run_uuid", "uuid-template");
    run->on_step(step_record(0));
    run->on_step(step_record(1));
    run->flush();
    fs::copy_file(source, t.archive, fs::copy_options::overwrite_existing);
    run->on_step(step_record(2));
    t.step = lbb::scan_journal(lbb::journal_path(source)).records.at(0);
  }
  unsetenv("LBB_ARCHIVE_COMMIT_SECONDS");
  return t;
}

std::string pick_id(FuzzedDataProvider& in, const std::string& own) {
  return in.ConsumeBool() ? own : in.ConsumeRandomLengthString(16);
}

// Bytes for `rows` rows of a column whose row holds `row_bytes`, or a fuzzed length.
std::vector<unsigned char> column_bytes(FuzzedDataProvider& in, std::size_t row_bytes,
                                        std::uint32_t rows) {
  std::size_t n = row_bytes * std::min<std::uint32_t>(rows, 64);
  if (in.ConsumeBool()) n = in.ConsumeIntegralInRange<std::size_t>(0, 256);
  return std::vector<unsigned char>(n, in.ConsumeIntegral<unsigned char>());
}

void add_step(FuzzedDataProvider& in, lbb::JournalWriter& w, const Template& t) {
  const auto row = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::uint64_t>(0, 6)
                                    : in.ConsumeIntegral<std::uint64_t>();
  const auto rows = in.ConsumeBool() ? in.ConsumeIntegralInRange<std::uint32_t>(1, 4)
                                     : in.ConsumeIntegral<std::uint32_t>();
  std::vector<const lbb::JournalColumn*> columns;
  for (const lbb::JournalColumn& c : t.step.columns)
    if (in.ConsumeIntegralInRange(0, 15) != 0) columns.push_back(&c);  // sometimes one missing
  w.begin(pick_id(in, t.step.run_id), pick_id(in, t.step.run_uuid), row,
          static_cast<std::uint32_t>(columns.size()), rows);
  for (const lbb::JournalColumn* c : columns) {
    auto type = c->type;
    auto width = c->width;
    if (in.ConsumeIntegralInRange(0, 15) == 0)
      type = static_cast<lbb::RecordType>(in.ConsumeIntegral<std::uint8_t>() % 5);
    if (in.ConsumeIntegralInRange(0, 15) == 0) width = in.ConsumeIntegral<std::uint64_t>();
    const auto bytes = column_bytes(in, c->bytes.size(), rows);
    w.column(c->name, type, width, bytes.data(), bytes.size());
  }
  w.append();
}

// A header (the template's datasets, then attributes) or an end (attributes only).
void add_header_or_end(FuzzedDataProvider& in, lbb::JournalWriter& w, const Template& t,
                       bool header) {
  const int attributes = in.ConsumeIntegralInRange(0, 3);
  w.begin(pick_id(in, t.step.run_id), pick_id(in, t.step.run_uuid),
          header ? lbb::kHeaderRow : lbb::kEndRow,
          static_cast<std::uint32_t>((header ? t.step.columns.size() : 0) + attributes),
          in.ConsumeBool() ? 1 : in.ConsumeIntegral<std::uint32_t>());
  if (header)
    for (const lbb::JournalColumn& c : t.step.columns)
      w.column(c.name, c.type, c.width, nullptr, 0);
  static const char* const kNames[] = {"status", "run_uuid", "verified", "wall_total", "x/y", ""};
  for (int k = 0; k < attributes; ++k) {
    const std::string name =
        in.ConsumeBool() ? in.PickValueInArray(kNames) : in.ConsumeRandomLengthString(12);
    const auto type = static_cast<lbb::RecordType>(in.ConsumeIntegralInRange(0, 3));
    const std::string value = in.ConsumeRandomLengthString(16);
    w.column(name, type, in.ConsumeBool() ? 0 : 1, value.data(), value.size());
  }
  w.append();
}

// Cuts the journal, or flips one of its bytes, at a fuzzed place.
void damage(FuzzedDataProvider& in, const std::string& journal) {
  std::error_code ec;
  const auto size = fs::file_size(journal, ec);
  if (ec || size == 0) return;
  const auto at = in.ConsumeIntegralInRange<std::uintmax_t>(0, size - 1);
  if (in.ConsumeBool()) {
    fs::resize_file(journal, at, ec);
    return;
  }
  std::fstream f(journal, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(at));
  char c = 0;
  f.get(c);
  f.seekp(static_cast<std::streamoff>(at));
  f.put(static_cast<char>(c ^ (1 << in.ConsumeIntegralInRange(0, 7))));
}

void fold_copy(const Template& t) {
  fs::copy_file(t.archive, t.work, fs::copy_options::overwrite_existing);
  fs::copy_file(lbb::journal_path(t.archive), lbb::journal_path(t.work),
                fs::copy_options::overwrite_existing);
  try {
    lbb::fold_journal(t.work);
    lbb::ArchiveReader reader(t.work);
    for (const auto& run : reader.runs()) reader.read_series(run.id, "step/wall");
  } catch (const lbb::h5::Error&) {
  } catch (const lbb::ArchiveError&) {
  }
  fs::remove(lbb::journal_path(t.work));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Template t = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // HDF5's own error stack print is noise here
    return make_template();
  }();
  FuzzedDataProvider in(data, size);
  {
    lbb::JournalWriter w(t.archive);
    for (int k = in.ConsumeIntegralInRange(0, 6); k > 0; --k) {
      const int kind = in.ConsumeIntegralInRange(0, 3);
      if (kind <= 1)
        add_step(in, w, t);
      else
        add_header_or_end(in, w, t, kind == 2);
    }
  }
  const std::string journal = lbb::journal_path(t.archive);
  if (!fs::exists(journal)) return 0;
  if (in.ConsumeIntegralInRange(0, 3) == 0) damage(in, journal);
  const lbb::JournalScan scan = lbb::scan_journal(journal);
  std::uint64_t bytes = 0;
  for (const auto& r : scan.records)
    for (const auto& c : r.columns) bytes += c.bytes.size();
  const lbb::JournalReport report = lbb::inspect_journal(t.archive);
  if (report.problem.empty() && report.changes() && bytes < (1u << 20)) fold_copy(t);
  fs::remove(journal);
  return 0;
}
