#include "harness/results/child_reader.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <exception>

#include "harness/results/part_file.h"
#include "harness/results/table_wire.h"

namespace lbb {

namespace {

// Every table of `path`: a status byte ('t' a table follows, 'e' an error's text), then it.
std::string read_all(const std::string& path, std::uint64_t budget) {
  std::string out;
  for (const TableSpec& t : result_tables()) {
    try {
      H5Id file(open_part(path), H5Fclose, path);
      std::uint64_t left = budget;
      const ColumnTable table = read_table(file.get(), t, path, left);
      out += 't';
      put_table(table, out);
    } catch (const std::exception& e) {  // a ResultError, or memory the table could not have
      out += 'e';
      put_text(e.what(), out);
    }
  }
  return out;
}

void write_all(int fd, const std::string& bytes) {
  for (std::size_t at = 0; at < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + at, bytes.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);
    at += static_cast<std::size_t>(n);
  }
}

std::string read_pipe(int fd) {
  std::string bytes;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.append(buf, static_cast<std::size_t>(n));
  }
  return bytes;
}

}  // namespace

std::map<TableId, HeldTable> read_tables_in_child(const std::string& path, std::uint64_t budget) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw ResultError(path + ": cannot read it (pipe failed)");
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]), close(fds[1]);
    throw ResultError(path + ": cannot read it (fork failed)");
  }
  if (child == 0) {
    close(fds[0]);
    write_all(fds[1], read_all(path, budget));
    _exit(0);
  }
  close(fds[1]);
  const std::string bytes = read_pipe(fds[0]);
  close(fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) throw ResultError(path + ": cannot read it (waitpid failed)");
  if (WIFSIGNALED(status))
    throw ResultError(path + ": damaged: HDF5 crashed reading its tables (signal " +
                      std::to_string(WTERMSIG(status)) +
                      "), though its seal holds: edited after it was written?");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw ResultError(path + ": cannot read it (its reader exited " +
                      std::to_string(WEXITSTATUS(status)) + ")");
  std::map<TableId, HeldTable> held;
  std::size_t at = 0;
  for (const TableSpec& t : result_tables()) {
    if (at >= bytes.size()) throw ResultError(path + ": the child's tables end early");
    HeldTable& h = held[t.id];
    if (bytes[at++] == 't')
      h.table = take_table(bytes, at, path);
    else
      h.error = take_text(bytes, at, path);
  }
  return held;
}

}  // namespace lbb
