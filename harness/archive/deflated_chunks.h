#pragma once
// Deflates a dataset's chunks in the very bytes HDF5's deflate filter stores (zlib format), after
// HDF5's shuffle filter where that deflates smaller, so every reader decodes them with those
// filters: libdeflate compresses them 2.4 times faster than the zlib those filters call.
#include <cstddef>
#include <vector>

#include "harness/archive/archive_schema.h"
#include "harness/archive/h5_handle.h"

namespace lbb::h5 {

// The deflate level of the archive's step datasets, by libdeflate and zlib alike: 1 compresses a
// seed000 slice's chunks 7 % cheaper in archive CPU than 4, the file 1.2 % larger.
inline constexpr int kDeflateLevel = 1;

// A dataset whose first chunk deflates alone to more than 1/kShuffleTrialRatio of its bytes has
// that chunk deflated shuffled too, and all its chunks go the way that was smaller: rows that
// repeat (a simulated run's) deflate 1.7 times smaller and 1.7 times faster unshuffled, noisy
// measured values about 10 % smaller shuffled.
inline constexpr std::size_t kShuffleTrialRatio = 3;

// A dataset's chunks of `chunk_rows` rows, deflated; an all-zero chunk is not stored (it reads
// as the fill value, 0).
struct DeflatedChunks {
  bool shuffled = false;  // each chunk went through HDF5's shuffle filter before deflate
  std::vector<hsize_t> first_rows;
  std::vector<std::size_t> ends;  // chunk k's bytes are bytes[ends[k - 1], ends[k])
  std::vector<unsigned char> bytes;
};

// The chunks of `rows` rows of `width` values of `type` (host layout, as append_rows takes them),
// or null where the file's type is not the host's (the chunks would bypass type conversion; write
// through H5Dwrite then). The result lives until this thread's next call. (A run table's column
// equal to an earlier one is linked to it, run_tables.h, so none is deflated twice.)
const DeflatedChunks* deflate_chunks(RecordType type, hsize_t rows, hsize_t width,
                                     hsize_t chunk_rows, const void* data);

// Writes `chunks` to `d`, created with their chunk size and filters (shuffle when
// chunks.shuffled, then deflate).
void write_deflated_chunks(hid_t d, const DeflatedChunks& chunks);

}  // namespace lbb::h5
