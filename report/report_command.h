#pragma once
// `lbbench report ARCHIVE [B.h5] [options]`: runs report.py (figures and one HTML page).
namespace CLI {
class App;
}

namespace lbb {

void add_report_command(CLI::App& app);

}  // namespace lbb
