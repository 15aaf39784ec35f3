#pragma once
// MappedFile: a whole file mapped read-only into memory. Parsers read it as one char range without
// copying; Buffers can borrow from it (hold the shared_ptr to keep the mapping alive).
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace courier {

struct MapOptions {
  bool populate = false;  // fault every page in up front (for a file about to be read entirely)
};

class MappedFile {
 public:
  using Options = MapOptions;
  // Throws InputError "PATH: cannot open: <strerror>" (or "not a regular file").
  static std::shared_ptr<const MappedFile> open(const std::string& path, Options options);
  static std::shared_ptr<const MappedFile> open(const std::string& path) { return open(path, {}); }

  explicit MappedFile(std::string path, Options options = {});
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::string_view text() const { return {data_, size_}; }
  const std::string& path() const { return path_; }
  // Drops the pages wholly inside [from, from + bytes) from this process's resident memory (and
  // the last page, which the file ends inside, when the range reaches the end); a later
  // read faults them in again from the page cache. For large files read in passes, so a pass costs
  // a window of the file in resident memory rather than all of it.
  void release(const void* from, std::size_t bytes) const;

 private:
  std::string path_;
  const char* data_ = "";  // an empty file is not mapped; data() still points somewhere valid
  std::size_t size_ = 0;
  bool mapped_ = false;
};

}  // namespace courier
