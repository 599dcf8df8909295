// lbbench export SET --to DIR: the set's tables as CSV files that any tool reads as they are;
// --format vt: each run with module detail as vt's LBDatafile set; --format chrome: as a Chrome
// trace-event timeline (harness/formats/).
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "core/text.h"
#include "harness/analysis/run_trace.h"
#include "harness/analysis/timeline.h"
#include "harness/cli/commands.h"
#include "harness/cli/left_out.h"
#include "harness/formats/vt_datafile.h"
#include "harness/results/recorded_level.h"
#include "harness/results/result_reader.h"

namespace lbb {

namespace {

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
void put_text(std::string& out, const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) {
    out += s;
    return;
  }
  out += '"';
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  out += '"';
}

void put_value(std::string& out, const Column& c, std::size_t row) {
  if (c.type == ColumnType::kText) return put_text(out, c.text[row]);
  if (c.type != ColumnType::kFloat64) {
    out += std::to_string(c.ints[row]);
    return;
  }
  if (std::isnan(c.reals[row])) return;  // an empty field: pandas reads NaN
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", c.reals[row]);
  out += buffer;
}

std::string csv(const ColumnTable& t) {
  std::string out;
  for (std::size_t k = 0; k < t.columns.size(); ++k) {
    if (k) out += ',';
    put_text(out, t.columns[k].name);
  }
  out += '\n';
  for (std::size_t r = 0; r < t.rows(); ++r) {
    for (std::size_t k = 0; k < t.columns.size(); ++k) {
      if (k) out += ',';
      put_value(out, t.columns[k], r);
    }
    out += '\n';
  }
  return out;
}

// Writes `dir`/`name` whole through a hidden temporary renamed over it: a symlink of that name
// is replaced, never followed.
void write_file(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name, temp = dir + "/." + name + ".tmp";
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw ResultError(temp + ": " + std::strerror(errno));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      close(fd);
      unlink(temp.c_str());
      throw ResultError(path + ": " + why);
    }
    done += static_cast<std::size_t>(n);
  }
  if (close(fd) != 0 || rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    unlink(temp.c_str());
    throw ResultError(path + ": " + why);
  }
}

// Whether `name` is a file a CSV export writes: a table's CSV, or its hidden temporary.
bool export_file_name(const std::string& name) {
  for (const TableSpec& t : result_tables()) {
    const std::string csv = std::string(t.name) + ".csv";
    if (name == csv || name == "." + csv + ".tmp") return true;
  }
  return false;
}

// The folder `dir` for a CSV export, created when absent; returns the files an earlier export
// left there. Anything else in it is refused: an export replaces an export, and nothing more.
std::vector<std::string> export_folder(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir)) throw ResultError(dir + ": not a directory");
  std::vector<std::string> earlier, foreign;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code type_ec;
    const bool file = it->symlink_status(type_ec).type() == std::filesystem::file_type::regular;
    (file && export_file_name(name) ? earlier : foreign).push_back(name);
  }
  if (ec) throw ResultError(dir + ": " + ec.message());
  if (!foreign.empty())
    throw ResultError(dir + ": holds " + std::to_string(foreign.size()) +
                      " files that are not an lbbench export's (" + foreign.front() +
                      (foreign.size() > 1 ? ", ..." : "") +
                      "): export into a new or empty folder, or one of an earlier export");
  return earlier;
}

// ", none of the 12 runs recorded at execution.record: runs" where runs wrote no rows of `t`.
std::string coarser_runs(const ResultReader& reader, const TableSpec& t) {
  std::size_t coarser = 0;
  for (const RunRecord& run : reader.runs()) coarser += recorded_level(run) < t.record;
  if (coarser == 0) return "";
  return " (none of the " + std::to_string(coarser) +
         " runs recorded coarser than execution.record: " +
         std::string(record_level_name(t.record)) + ")";
}

void export_set(const std::string& set, const std::string& dir) {
  const ResultReader reader(set);
  require_runs(reader, set);
  std::vector<std::string> earlier = export_folder(dir);
  for (const TableSpec& t : result_tables()) {
    const ColumnTable table = reader.table(t.id);
    if ((t.record == RecordLevel::kModules || !t.switch_key.empty()) && table.rows() == 0) continue;
    const std::string name = std::string(t.name) + ".csv";
    write_file(dir, name, csv(table));
    std::erase(earlier, name);
    std::cout << printable(dir) << "/" << name << ": " << table.rows() << " rows"
              << coarser_runs(reader, t) << "\n";
  }
  for (const std::string& name : earlier)  // what this export did not write: not this set's
    if (unlink((dir + "/" + name).c_str()) != 0 && errno != ENOENT)
      throw ResultError(dir + "/" + name + ": an earlier export's file: " + std::strerror(errno));
  print_left_out(reader);  // parts and tables left out
}

// A file name for a run id: what is not a letter, digit or '-' becomes '_'.
std::string file_name(const std::string& run) {
  std::string name;
  for (char c : run) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return name;
}

std::string run_folder(const std::string& dir, const std::string& run) {
  const std::string path = dir + "/" + file_name(run);
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (!std::filesystem::is_directory(path)) throw ResultError(path + ": not a directory");
  return path;
}

// Exports each run with module detail (or `run`) through `one`; a run whose tables fail their
// checks is left out and named, and the parts left out are named after.
void export_runs(const ResultReader& reader, const std::string& run,
                 const std::function<void(const RunRecord&)>& one) {
  std::size_t exported = 0, named = print_left_out(reader);
  for (const RunRecord* info : runs_with_modules(reader, run)) {
    try {
      one(*info);
      ++exported;
    } catch (const ResultError& e) {
      std::cerr << "lbbench: left out: run " << printable(info->run) << ": " << printable(e.what())
                << "\n";
    }
    named = print_left_out(reader, named);
  }
  if (exported == 0) throw ResultError("no run could be exported (see above why)");
}

// Each run with module detail (or `run`) as DIR/<run>/data.<rank>.json.
void export_vt(const std::string& set, const std::string& dir, const std::string& run) {
  const ResultReader reader(set);
  require_runs(reader, set);
  export_runs(reader, run, [&](const RunRecord& info) {
    std::string warning;
    const Trace trace = trace_of_run(reader, info, &warning);
    if (!warning.empty())
      std::cerr << "lbbench: warning: run " << printable(info.run) << ": " << warning << "\n";
    const std::string folder = run_folder(dir, info.run);
    for (const auto& [name, text] : vt_files(trace)) write_file(folder, name, text);
    std::cout << printable(folder) << ": " << trace.ranks << " LBDatafiles, " << trace.steps
              << " phases of " << trace.modules << " tasks\n";
  });
}

// Each run with module detail (or `run`) as DIR/<run>.trace.json.
void export_timelines(const std::string& set, const std::string& dir, const std::string& run) {
  const ResultReader reader(set);
  require_runs(reader, set);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir)) throw ResultError(dir + ": not a directory");
  std::size_t exported = 0, named = print_left_out(reader);
  for (const RunRecord* info : runs_with_timeline(reader, run)) {
    try {
      const std::string name = file_name(info->run) + ".trace.json";
      const std::string text = chrome_timeline(reader, *info);
      write_file(dir, name, text);
      std::cout << printable(dir) << "/" << name << ": Chrome trace events, "
                << (text.find("\"times\":\"measured\"") != std::string::npos ? "measured"
                                                                             : "modelled")
                << " (Perfetto and speedscope open it)\n";
      ++exported;
    } catch (const std::exception& e) {
      std::cerr << "lbbench: left out: run " << printable(info->run) << ": " << printable(e.what())
                << "\n";
    }
    named = print_left_out(reader, named);
  }
  if (exported == 0) throw ResultError("no run could be exported (see above why)");
}

}  // namespace

void add_export_command(CLI::App& app) {
  auto set = std::make_shared<std::string>();
  auto to = std::make_shared<std::string>();
  auto format = std::make_shared<std::string>("csv");
  auto run = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "export",
      "write a result set's tables as CSV: runs.csv, steps.csv, procs.csv, invocations.csv and "
      "modules.csv where recorded (units and meanings: lbbench schema)");
  cmd->add_option("set", *set, "result set (a directory of parts, or one part)")->required();
  cmd->add_option("--to", *to, "directory to write the CSV files into")->required();
  cmd->add_option("--format", *format,
                  "csv: the tables; vt: each run with module detail as DIR/<run>/data.<rank>.json, "
                  "DARMA vt's LBDatafile (LBAF and vt-tv read it; workload kind trace imports it); "
                  "chrome: each such run, and each with execution.timeline, as "
                  "DIR/<run>.trace.json, a timeline of trace events (Perfetto, speedscope): "
                  "measured where the run recorded its timeline, else modelled")
      ->check(CLI::IsMember({"csv", "vt", "chrome"}));
  auto timeline = std::make_shared<bool>(false);
  cmd->add_flag("--timeline", *timeline, "the same as --format chrome");
  cmd->add_option("--run", *run, "vt, chrome: only this run (an id, as lbbench show lists them)");
  cmd->callback([set, to, format, run, timeline] {
    try {
      if (*timeline && *format != "csv" && *format != "chrome")
        throw std::invalid_argument("--timeline is --format chrome, not --format " + *format);
      if (*timeline) *format = "chrome";
      if (*format == "vt")
        export_vt(*set, *to, *run);
      else if (*format == "chrome")
        export_timelines(*set, *to, *run);
      else
        export_set(*set, *to);
    } catch (const std::exception& e) {
      std::cerr << "lbbench: " << printable(e.what()) << "\n";
      throw CLI::RuntimeError(kExitBadInput);
    }
  });
}

}  // namespace lbb
