#include "courier/core/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "courier/core/error.hpp"

namespace courier {

namespace {
[[noreturn]] void throw_io(const std::string& path, std::string_view action, int error) {
  throw Error(fmt::format("{}: cannot {}: {}", path, action, std::strerror(error)));
}

std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter.fetch_add(1));
}
}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  // O_EXCL: never clobber another writer's temporary; 0666 lets the umask decide as for any file.
  for (int attempt = 0; fd_ < 0; ++attempt) {
    temporary_path_ = temporary_name(path_);
    fd_ = ::open(temporary_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && (errno != EEXIST || attempt > 100)) throw_io(path_, "create", errno);
  }
}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
}

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlink(temporary_path_.c_str());
}

void AtomicFile::write(const void* data, std::size_t size) {
  if (fd_ < 0) throw Error(fmt::format("{}: write after commit", path_));
  const char* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t written = ::write(fd_, bytes, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      throw_io(path_, "write", errno);
    }
    bytes += written;
    size -= static_cast<std::size_t>(written);
    bytes_written_ += static_cast<std::size_t>(written);
  }
}

void AtomicFile::commit() {
  if (fd_ < 0) throw Error(fmt::format("{}: committed twice", path_));
  // No fsync: the rename protects readers from partial files after a process failure, which is
  // what matters here; surviving a power cut is not worth the cost on multi-GB outputs.
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary_path_.c_str());
    throw_io(path_, "write", error);
  }
  if (::rename(temporary_path_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary_path_.c_str());
    throw_io(path_, "rename the temporary onto", error);
  }
  committed_ = true;
}

}  // namespace courier
