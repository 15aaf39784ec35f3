#pragma once
// AtomicFile: an output file that appears under its name only when complete. Bytes go to a
// temporary name in the same folder; commit() renames it over the target. If the AtomicFile is
// destroyed uncommitted (an exception, an early return) the temporary is removed, so a failed
// write leaves neither a partial file nor a stray temporary, and an existing target is untouched.
#include <cstddef>
#include <string>
#include <string_view>

namespace courier {

class AtomicFile {
 public:
  // Creates the temporary; throws Error "PATH: cannot create: <strerror>".
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Throws Error "PATH: cannot write: <strerror>".
  void write(const void* data, std::size_t size);
  void write(std::string_view bytes) { write(bytes.data(), bytes.size()); }
  // Closes the temporary and renames it to path(). Nothing may be written afterwards.
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return temporary_path_; }
  std::size_t bytes_written() const { return bytes_written_; }

 private:
  void discard() noexcept;

  std::string path_;
  std::string temporary_path_;
  int fd_ = -1;
  std::size_t bytes_written_ = 0;
  bool committed_ = false;
};

}  // namespace courier
