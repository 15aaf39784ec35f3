#include "courier/core/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "courier/core/error.hpp"
#include "courier/core/memory.hpp"

namespace courier {

namespace {
[[noreturn]] void throw_cannot_open(const std::string& path, int error) {
  throw_input_error(path, 0, std::string("cannot open: ") + std::strerror(error));
}
}  // namespace

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path, Options options) {
  return std::make_shared<const MappedFile>(path, options);
}

MappedFile::MappedFile(std::string path, Options options) : path_(std::move(path)) {
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw_cannot_open(path_, errno);
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int error = errno;
    ::close(fd);
    throw_cannot_open(path_, error);
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(fd);
    throw_input_error(path_, 0, "cannot open: not a regular file");
  }
  size_ = static_cast<std::size_t>(status.st_size);
  if (size_ > 0) {
    const int flags = MAP_PRIVATE | (options.populate ? MAP_POPULATE : 0);
    void* address = ::mmap(nullptr, size_, PROT_READ, flags, fd, 0);
    if (address == MAP_FAILED) {
      const int error = errno;
      ::close(fd);
      throw_cannot_open(path_, error);
    }
    ::madvise(address, size_, MADV_SEQUENTIAL);
    data_ = static_cast<const char*>(address);
    mapped_ = true;
  }
  ::close(fd);  // the mapping stays valid without the descriptor
}

void MappedFile::release(const void* from, std::size_t bytes) const {
  if (!mapped_ || bytes == 0) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(data_), stop = start + size_;
  const auto begin = std::max(reinterpret_cast<std::uintptr_t>(from), start);
  // The mapping's last page, which the file ends inside, goes with a range that reaches the end.
  const auto end = reinterpret_cast<std::uintptr_t>(from) + bytes >= stop
                       ? (stop + page - 1) / page * page
                       : reinterpret_cast<std::uintptr_t>(from) + bytes;
  if (begin < end) release_pages(reinterpret_cast<const void*>(begin), end - begin);
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace courier
