#include "harness/formats/assignment_file.h"

#include <cctype>
#include <filesystem>
#include <fstream>

#include "harness/formats/trace.h"

namespace lbb {

namespace {

std::vector<double> owners_of_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TraceError(path + ": cannot open");
  std::vector<double> owners;
  std::string token;
  char c = 0;
  auto take = [&] {
    if (token.empty()) return;
    std::size_t used = 0;
    long long q = -1;
    try {
      q = std::stoll(token, &used);
    } catch (const std::exception&) {
    }
    if (used != token.size() || q < 0 || q >= kTraceMaxRanks)
      throw TraceError(path + ": module " + std::to_string(owners.size()) + "'s owner '" + token +
                       "' is not a processor");
    if (static_cast<std::int64_t>(owners.size()) >= kTraceMaxCells)
      throw TraceError(path + ": more than " + std::to_string(kTraceMaxCells) + " modules");
    owners.push_back(static_cast<double>(q));
    token.clear();
  };
  while (in.get(c)) {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c)))
      take();
    else if (token.size() < 32)
      token += c;
    else
      throw TraceError(path + ": '" + token + "...' is not a processor");
  }
  take();
  if (owners.empty()) throw TraceError(path + ": no owners");
  return owners;
}

}  // namespace

std::vector<double> read_assignment(const std::string& path) {
  std::error_code ec;
  const bool vt = std::filesystem::is_directory(path, ec) || path.ends_with(".json") ||
                  path.find_first_of("*?[") != std::string::npos;
  if (!vt) {
    if (std::filesystem::file_size(path, ec) > kTraceMaxFileBytes || ec)
      throw TraceError(path + ": " + (ec ? ec.message() : "too large"));
    return owners_of_text(path);
  }
  const Trace trace = read_trace(path, "vt");
  return {trace.owner.begin(), trace.owner.begin() + trace.modules};
}

std::string assignment_problem(const std::vector<double>& owners, int modules, int processors) {
  if (static_cast<int>(owners.size()) != modules)
    return "prescribed: the assignment has " + std::to_string(owners.size()) + " owners for " +
           std::to_string(modules) + " modules";
  for (std::size_t m = 0; m < owners.size(); ++m)
    if (owners[m] >= processors)
      return "prescribed: module " + std::to_string(m) + " on processor " +
             std::to_string(static_cast<long long>(owners[m])) + " of " +
             std::to_string(processors);
  return "";
}

}  // namespace lbb
