#pragma once
// Formats items (edges, vertices) into text in parallel blocks and writes the blocks in order, so
// the output is the same whatever the thread count.
#include <cstdint>
#include <functional>

#include <fmt/format.h>

#include "courier/core/atomic_file.hpp"
#include "courier/core/progress.hpp"

namespace courier::graph::io {

// format(first, last, out) appends the text of items [first, last) to out.
using FormatBlock = std::function<void(std::uint64_t, std::uint64_t, fmt::memory_buffer&)>;

void write_blocks(AtomicFile& file, std::uint64_t items, const FormatBlock& format,
                  std::uint64_t items_per_block = 1u << 18);

// Appends a decimal integer.
template <class T>
inline void append_int(fmt::memory_buffer& out, T value) {
  const fmt::format_int text(value);
  out.append(text.data(), text.data() + text.size());
}

// Appends a float that reads back as real: the shortest exact form, with ".0" if it has no '.' or
// exponent (a bare "3" would read back as an integer weight).
void append_real(fmt::memory_buffer& out, float value);

}  // namespace courier::graph::io
