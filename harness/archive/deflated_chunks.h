#pragma once
// Writes a chunked dataset's chunks already shuffled and deflated, in the very bytes HDF5's
// shuffle and deflate filters store (zlib format), so every reader decodes them with those
// filters: libdeflate compresses them 2.4 times faster than the zlib those filters call.
#include <cstddef>

#include "harness/archive/archive_schema.h"
#include "harness/archive/h5_handle.h"

namespace lbb::h5 {

// The deflate level of the archive's step datasets, by libdeflate and zlib alike: 1 compresses a
// seed000 slice's chunks 7 % cheaper in archive CPU than 4, the file 1.2 % larger.
inline constexpr int kDeflateLevel = 1;

// Writes all of `rows` rows of `width` values of `type` (host layout, as append_rows takes them)
// to the dataset `d`, created with chunks of `chunk_rows` rows and the filters shuffle, deflate.
// Returns false, writing nothing, where the file's type is not the host's (the chunks bypass
// type conversion); the caller then writes through H5Dwrite.
bool write_deflated_chunks(hid_t d, RecordType type, hsize_t rows, hsize_t width,
                           hsize_t chunk_rows, const void* data);

}  // namespace lbb::h5
