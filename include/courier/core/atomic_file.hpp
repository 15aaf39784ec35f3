#pragma once
// AtomicFile: an output file that appears under its name only when complete. Bytes go to a
// temporary name in the same folder; commit() renames it over the target. If the AtomicFile is
// destroyed uncommitted (an exception, an early return) the temporary is removed, so a failed
// write leaves neither a partial file nor a stray temporary, and an existing target is untouched.
//
// Atomic replacement is for regular files and new paths only:
//   - a symbolic link is followed, and its final target replaced in the target's folder;
//   - a character device, FIFO or socket (/dev/null, /dev/stdout, a pipe) is written through,
//     never renamed over;
//   - "-" is standard output (for text formats).
// Temporaries are named PATH.courier-tmp-PID-N. SIGINT and SIGTERM remove the live ones before the
// process ends as the signal would end it; a temporary whose process is gone (SIGKILL, a power cut)
// is removed, with a line on stderr, by the next AtomicFile for the same path.
#include <cstddef>
#include <string>
#include <string_view>

namespace courier {

class AtomicFile {
 public:
  // Creates the temporary (or opens the special file); throws Error "PATH: cannot create: ...".
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Throws Error "PATH: cannot write: <strerror>".
  void write(const void* data, std::size_t size);
  void write(std::string_view bytes) { write(bytes.data(), bytes.size()); }
  // Closes the temporary and renames it to the target. Nothing may be written afterwards.
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return temporary_path_; }  // empty when written through
  std::size_t bytes_written() const { return bytes_written_; }

 private:
  void discard() noexcept;

  std::string path_;            // as given
  std::string target_;          // what commit() replaces: path_, or the end of its symbolic links
  std::string temporary_path_;  // empty: writing straight to a special file or standard output
  int fd_ = -1;
  int slot_ = -1;  // in the registry the signal handler cleans
  std::size_t bytes_written_ = 0;
  bool committed_ = false;
};

}  // namespace courier
