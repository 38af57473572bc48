// The command line's file handling: what it reads and writes, and what it refuses.
//
// tile2cu reads only regular files of bounded size (never a device, a FIFO or a directory, which
// could block or never end), and writes only regular files: every output is checked before the
// first byte is written, all of them go to temporary files first, and only when every one was
// written in full are they renamed into place. An output that names an input is refused.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tile2cu::cli {

namespace fs = std::filesystem;

// The largest Python file or signature file tile2cu reads. cuTile kernel modules are kilobytes;
// the cap keeps the parser's memory (about 200 bytes per byte of one long expression) bounded.
inline constexpr std::size_t kMaxInputBytes = 4u << 20;

// Reads a regular file of at most kMaxInputBytes into `out`; otherwise sets `error`.
bool read_input_file(const fs::path& path, std::string& out, std::string& error);

// One file to write and its text.
using OutputFile = std::pair<fs::path, std::string>;

// Checks every output before anything is written: each must be a regular file or not exist yet,
// must not be one of `inputs`, and its file name must be printable and free of `"` (it goes into
// an #include). Then writes them all or none. Files that already hold their text are left
// untouched (builds that restat see no change).
bool write_outputs(const std::vector<OutputFile>& outputs, const std::vector<fs::path>& inputs,
                   std::string& error);

// Writes `text` to standard output; false (with `error`) when it cannot be written in full.
bool write_stdout(std::string_view text, std::string& error);

}  // namespace tile2cu::cli
