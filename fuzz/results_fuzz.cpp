// libFuzzer target for the result set reader: a valid part (written once by ResultWriter, or one
// of the parts under $LBB_FUZZ_PARTS, where run.sh puts a smoke, a default and a simulated set
// and a part of the older layout: fuzz/seed_sets.sh; bits 1-7 of the input's first byte pick the
// part) is damaged by the input (each 5 bytes: a 4-byte offset into the part and a byte XORed
// there, as bit flips and overwrites on a disk would), resealed when the input's first byte is odd
// (as a tool that edits a part reseals it: the damage then reaches HDF5 past the seal), then read
// every way the commands read it. Any outcome but data or a ResultError (a crash, a sanitizer
// report, another exception) is a finding.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harness/results/part_file.h"
#include "harness/results/result_reader.h"
#include "harness/results/result_writer.h"

namespace {

namespace fs = std::filesystem;

const fs::path kScratch =
    fs::temp_directory_path() / ("lbb_fuzz_results_" + std::to_string(getpid()));

std::vector<char> bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A part of two runs with every table filled: steps, procs, modules of two phases, a metric.
std::vector<char> valid_part() {
  const fs::path dir = kScratch / "valid";
  fs::remove_all(dir);
  {
    lbb::ResultWriter writer(dir.string(), {"fuzz", {{"command", std::string("fuzz")}}});
    for (int r = 0; r < 2; ++r) {
      auto run = writer.begin_run({{"residual"}, 2, 3, lbb::RecordLevel::kModules, 2});
      lbb::RunRecord record;
      record.workload = record.balancer = record.status = record.config_yaml = record.started = "x";
      record.invocation = "fuzz";
      record.processors = 2;
      for (int s = 0; s < 3; ++s) {
        lbb::StepRecord rec;
        rec.step = s;
        rec.busy = {1, 2};
        rec.phase_module_cost = {1, 2, 3, 4, 5, 6};
        rec.phase_module_owner = {0, 1, 0, 1, 0, 1};
        rec.metrics = {0.5};
        run->on_step(rec);
      }
      run->end(record);
    }
  }
  return bytes_of(*fs::directory_iterator(dir));
}

// The built-in part, then every part under $LBB_FUZZ_PARTS, in name order.
std::vector<std::vector<char>> seed_parts() {
  std::vector<std::vector<char>> parts{valid_part()};
  const char* dir = std::getenv("LBB_FUZZ_PARTS");
  if (!dir || !*dir) return parts;
  std::vector<fs::path> found;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".h5") found.push_back(e.path());
  std::sort(found.begin(), found.end());
  for (const fs::path& p : found) parts.push_back(bytes_of(p));
  return parts;
}

void read_everything(const std::string& path) {
  try {
    const lbb::ResultReader reader(path);
    for (const lbb::RunRecord& record : reader.runs()) {
      const std::string& id = record.run;
      std::size_t rows = 0, cols = 0;
      reader.read_series(id, "step/wall");
      reader.read_series(id, "metric/residual");
      reader.read_matrix(id, "proc/busy", rows, cols);
      reader.read_matrix(id, "module/cost", rows, cols);
      reader.read_matrix(id, "module/phase_owner", rows, cols);
    }
    for (const lbb::TableSpec& t : lbb::result_tables()) reader.table(t.id);
  } catch (const lbb::ResultError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<std::vector<char>> parts = seed_parts();
  static const fs::path damaged = kScratch / "damaged";
  std::vector<char> bytes = parts[size > 0 ? (data[0] >> 1) % parts.size() : 0];
  for (std::size_t k = 0; k + 5 <= size; k += 5) {
    std::uint32_t offset = 0;
    std::memcpy(&offset, data + k, 4);
    bytes[offset % bytes.size()] ^= static_cast<char>(data[k + 4]);
  }
  fs::create_directories(damaged);
  std::ofstream(damaged / "part.h5", std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (size > 0 && (data[0] & 1)) lbb::reseal_part((damaged / "part.h5").string());
  read_everything(damaged.string());
  return 0;
}
