#include "harness/archive/step_journal.h"

#include <fcntl.h>
#include <libdeflate.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "harness/archive/h5_handle.h"

namespace lbb {

namespace {

constexpr std::uint32_t kMagic = 0x334A424Cu;    // "LBJ3" in little-endian order
constexpr std::uint32_t kMagicV2 = 0x324A424Cu;  // "LBJ2": every row written
constexpr std::uint32_t kMagicV1 = 0x314A424Cu;  // "LBJ1": no rows field, one row
constexpr std::size_t kFrame = 3 * sizeof(std::uint32_t);
// A row of 2^30 bytes is far beyond any run (M = 10^7 modules take 120 MB a step).
constexpr std::uint64_t kMaxPayload = std::uint64_t{1} << 30;

// CRC-32 (zlib's and gzip's), by libdeflate: 2.4x zlib's speed on 200 KB records.
std::uint32_t crc_of(const unsigned char* data, std::size_t bytes) {
  return libdeflate_crc32(0, data, bytes);
}

template <typename T>
void put(std::vector<unsigned char>& out, T value) {
  const auto* p = reinterpret_cast<const unsigned char*>(&value);
  out.insert(out.end(), p, p + sizeof value);
}

void put_text(std::vector<unsigned char>& out, const std::string& s) {
  put(out, static_cast<std::uint32_t>(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}

// Reads a payload front to back; every read is bounds-checked against what is left.
class Cursor {
 public:
  Cursor(const unsigned char* data, std::size_t size) : p_(data), left_(size) {}
  template <typename T>
  T get() {
    T v;
    std::memcpy(&v, take(sizeof v), sizeof v);
    return v;
  }
  std::string text() {
    const auto n = get<std::uint32_t>();
    const auto* s = take(n);
    return std::string(reinterpret_cast<const char*>(s), n);
  }
  const unsigned char* take(std::uint64_t n) {
    if (n > left_) throw h5::Error("a field runs past the record's end");
    const auto* at = p_;
    p_ += n;
    left_ -= n;
    return at;
  }
  std::size_t left() const { return left_; }

 private:
  const unsigned char* p_;
  std::size_t left_;
};

// One column of record r; its bytes hold r.rows rows, or (`repeat_left` set: an "LBJ3" record)
// one row standing for r.rows equal ones, which may add at most *repeat_left bytes.
JournalColumn decode_column(Cursor& c, const JournalRecord& r, std::uint64_t* repeat_left) {
  const std::uint32_t rows = r.rows;
  JournalColumn col;
  col.name = c.text();
  const auto type = c.get<std::uint8_t>();
  if (type > static_cast<std::uint8_t>(RecordType::kFloat64))
    throw h5::Error("column " + col.name + " has an unknown type");
  col.type = static_cast<RecordType>(type);
  col.width = c.get<std::uint64_t>();
  const auto bytes = c.get<std::uint64_t>();
  const std::uint64_t values = row_values(col.width);
  const bool dataset = col.name.find('/') != std::string::npos;
  std::uint32_t copies = 1;  // of the bytes read: r.rows where one row stands for all
  // An end's columns and a header's columns without '/' are attributes: one text, int64 or
  // float64 value each (recovery reads numbers as 8 bytes).
  if (r.is_end() || (r.is_header() && !dataset)) {
    if (col.width != 0 || col.type == RecordType::kInt32 ||
        (col.type != RecordType::kText && bytes != record_type_bytes(col.type)))
      throw h5::Error("attribute " + col.name + " is not one text, int64 or float64 value");
  } else {
    const std::uint64_t row_bytes =
        r.is_header() || values > kMaxPayload ? 0 : values * record_type_bytes(col.type);
    const bool once = repeat_left && rows > 1 && row_bytes > 0 && bytes == row_bytes;
    if (col.type == RecordType::kText ||
        (!once && (values > kMaxPayload || bytes % rows != 0 || bytes / rows != row_bytes)))
      throw h5::Error("column " + col.name + " holds " + std::to_string(bytes) + " bytes, not " +
                      std::to_string(rows) + " row(s) of its width");
    if (once) {
      if (rows - 1 > *repeat_left / row_bytes)
        throw h5::Error("column " + col.name + "'s equal rows take the journal past " +
                        std::to_string(kMaxRepeatedBytes) + " bytes beyond its own");
      *repeat_left -= (rows - 1) * row_bytes;
      copies = rows;
    }
  }
  const auto* p = c.take(bytes);
  col.bytes.resize(bytes * copies);
  for (std::uint32_t k = 0; bytes > 0 && k < copies; ++k)  // a header's columns hold none
    std::memcpy(col.bytes.data() + k * bytes, p, bytes);
  return col;
}

JournalRecord decode(const unsigned char* data, std::size_t size, std::uint32_t magic,
                     std::uint64_t& repeat_left) {
  Cursor c(data, size);
  JournalRecord r;
  r.run_id = c.text();
  r.run_uuid = c.text();
  r.row = c.get<std::uint64_t>();
  if (magic != kMagicV1) r.rows = c.get<std::uint32_t>();
  const auto columns = c.get<std::uint32_t>();
  // Several rows only in a step record, with columns to hold them, numbered below the header's.
  if (r.rows == 0 ||
      (r.rows > 1 && (r.is_header() || r.is_end() || columns == 0 || r.row > kHeaderRow - r.rows)))
    throw h5::Error("it claims " + std::to_string(r.rows) + " rows");
  for (std::uint32_t k = 0; k < columns; ++k)
    r.columns.push_back(decode_column(c, r, magic == kMagic ? &repeat_left : nullptr));
  if (c.left() != 0) throw h5::Error("bytes after the last column");
  return r;
}

bool read_exactly(int fd, unsigned char* out, std::size_t n) {
  while (n > 0) {
    const ssize_t got = ::read(fd, out, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    out += got;
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

}  // namespace

std::string journal_path(const std::string& archive) {
  return archive + ".lbbench-journal";
}

JournalWriter::JournalWriter(const std::string& archive) : path_(journal_path(archive)) {
  fd_ =
      ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd_ < 0)
    throw h5::Error(archive + ": cannot create the step journal " + path_ + ": " +
                    std::strerror(errno));
}

JournalWriter::JournalWriter(JournalWriter&& o) noexcept
    : path_(std::move(o.path_)),
      fd_(std::exchange(o.fd_, -1)),
      empty_(o.empty_),
      bytes_(o.bytes_),
      repeated_(o.repeated_),
      pending_repeated_(o.pending_repeated_),
      rows_(o.rows_),
      buffer_(std::move(o.buffer_)) {}

JournalWriter& JournalWriter::operator=(JournalWriter&& o) noexcept {
  if (this != &o) {
    close();
    path_ = std::move(o.path_);
    fd_ = std::exchange(o.fd_, -1);
    empty_ = o.empty_;
    bytes_ = o.bytes_;
    repeated_ = o.repeated_;
    pending_repeated_ = o.pending_repeated_;
    rows_ = o.rows_;
    buffer_ = std::move(o.buffer_);
  }
  return *this;
}

JournalWriter::~JournalWriter() {
  close();
}

void JournalWriter::close() noexcept {
  if (fd_ < 0) return;
  if (empty_) ::unlink(path_.c_str());
  ::close(fd_);
  fd_ = -1;
}

void JournalWriter::begin(const std::string& run_id, const std::string& run_uuid, std::uint64_t row,
                          std::uint32_t columns, std::uint32_t rows) {
  buffer_.assign(kFrame, 0);
  rows_ = rows;
  pending_repeated_ = 0;
  put_text(buffer_, run_id);
  put_text(buffer_, run_uuid);
  put(buffer_, row);
  put(buffer_, rows);
  put(buffer_, columns);
}

void JournalWriter::column(const std::string& name, RecordType type, std::uint64_t width,
                           const void* data, std::size_t bytes) {
  put_text(buffer_, name);
  put(buffer_, static_cast<std::uint8_t>(type));
  put(buffer_, width);
  const auto* p = static_cast<const unsigned char*>(data);
  // Equal rows once (a zero or constant column of a burst), while the readers' bound allows.
  if (rows_ > 1 && bytes > 0 && bytes % rows_ == 0) {
    const std::size_t row = bytes / rows_, more = bytes - row;
    if (repeated_ + pending_repeated_ + more <= kMaxRepeatedBytes &&
        std::memcmp(p, p + row, more) == 0) {  // each row equals the next: all are equal
      pending_repeated_ += more;
      bytes = row;
    }
  }
  put(buffer_, static_cast<std::uint64_t>(bytes));
  buffer_.insert(buffer_.end(), p, p + bytes);
}

void JournalWriter::append() {
  if (fd_ < 0) return;
  const std::size_t payload = buffer_.size() - kFrame;
  if (payload > kMaxPayload) throw h5::Error(path_ + ": steps too large for the journal");
  const std::uint32_t frame[3] = {kMagic, static_cast<std::uint32_t>(payload),
                                  crc_of(buffer_.data() + kFrame, payload)};
  std::memcpy(buffer_.data(), frame, kFrame);
  write(buffer_);
  repeated_ += std::exchange(pending_repeated_, 0);
}

// One write(2): the records are in the page cache, whole, before their steps count as finished
// (a kill inside it leaves at most the last one torn, which recovery skips).
void JournalWriter::write(const std::vector<unsigned char>& bytes) {
  const unsigned char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd_, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw h5::Error(path_ + ": cannot append a step: " + std::strerror(errno));
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  empty_ = false;
  bytes_ += bytes.size();
}

void JournalWriter::clear() {
  if (fd_ < 0 || empty_) return;
  if (::ftruncate(fd_, 0) != 0)
    throw h5::Error(path_ + ": cannot empty the journal: " + std::strerror(errno));
  empty_ = true;
  bytes_ = 0;
  repeated_ = 0;
}

JournalScan scan_journal(const std::string& journal) {
  JournalScan scan;
  const int fd = ::open(journal.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return scan;
    scan.exists = true;
    scan.problem = std::string("cannot open: ") + std::strerror(errno);
    return scan;
  }
  scan.exists = true;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    scan.problem = "not a regular file";
    return scan;
  }
  const std::uint64_t size = static_cast<std::uint64_t>(st.st_size);
  std::uint64_t at = 0;
  std::vector<unsigned char> payload;
  std::uint64_t repeat_left = kMaxRepeatedBytes;
  while (at < size) {
    std::uint32_t frame[3];
    if (size - at < kFrame || !read_exactly(fd, reinterpret_cast<unsigned char*>(frame), kFrame)) {
      scan.torn_bytes = size - at;
      break;
    }
    const std::string where = "record at byte " + std::to_string(at);
    if (frame[0] != kMagic && frame[0] != kMagicV2 && frame[0] != kMagicV1) {
      scan.problem = where + " is not a journal record (bad magic)";
      break;
    }
    if (frame[1] > kMaxPayload) {
      scan.problem = where + " claims " + std::to_string(frame[1]) + " bytes";
      break;
    }
    if (frame[1] > size - at - kFrame) {  // the file ends inside it: torn by a kill
      scan.torn_bytes = size - at;
      break;
    }
    payload.resize(frame[1]);
    if (!read_exactly(fd, payload.data(), payload.size())) {
      scan.torn_bytes = size - at;
      break;
    }
    if (crc_of(payload.data(), payload.size()) != frame[2]) {
      scan.problem = where + " fails its checksum";
      break;
    }
    try {
      scan.records.push_back(decode(payload.data(), payload.size(), frame[0], repeat_left));
    } catch (const h5::Error& e) {
      scan.problem = where + ": " + e.what();
      break;
    }
    at += kFrame + frame[1];
  }
  ::close(fd);
  return scan;
}

}  // namespace lbb
