#include "courier/core/atomic_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "courier/core/error.hpp"

namespace courier {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void throw_io(const std::string& path, std::string_view action, int error) {
  throw Error(fmt::format("{}: cannot {}: {}", path, action, std::strerror(error)));
}

constexpr std::string_view kTemporaryMark = ".courier-tmp-";

std::string temporary_name(const std::string& target) {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}{}{}-{}", target, kTemporaryMark, ::getpid(), counter.fetch_add(1));
}

// The live temporaries, where a signal handler can read them: fixed slots, no allocation.
struct Slot {
  std::atomic<bool> used{false};
  char path[4096];
};
std::array<Slot, 64> registry;
std::array<struct sigaction, 2> previous;  // SIGINT's and SIGTERM's before ours
constexpr std::array<int, 2> kSignals{SIGINT, SIGTERM};

void on_signal(int signal) {
  for (Slot& slot : registry)
    if (slot.used.load(std::memory_order_acquire)) ::unlink(slot.path);
  // End as the signal would have ended us (or as the handler before ours says).
  for (std::size_t k = 0; k < kSignals.size(); ++k)
    if (kSignals[k] == signal) ::sigaction(signal, &previous[k], nullptr);
  ::raise(signal);
}

void install_handler_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (std::size_t k = 0; k < kSignals.size(); ++k) {
      struct sigaction action {};
      ::sigaction(kSignals[k], nullptr, &previous[k]);
      if (previous[k].sa_handler == SIG_IGN) continue;  // an ignored signal stays ignored
      action.sa_handler = on_signal;
      ::sigemptyset(&action.sa_mask);
      ::sigaction(kSignals[k], &action, nullptr);
    }
  });
}

// A slot for `path`, or -1 when all are taken (then only the destructor removes it).
int register_temporary(const std::string& path) {
  install_handler_once();
  if (path.size() >= sizeof(Slot::path)) return -1;
  for (std::size_t s = 0; s < registry.size(); ++s) {
    bool expected = false;
    Slot& slot = registry[s];
    if (slot.used.load(std::memory_order_relaxed)) continue;
    std::memcpy(slot.path, path.c_str(), path.size() + 1);
    if (slot.used.compare_exchange_strong(expected, true, std::memory_order_acq_rel)) return static_cast<int>(s);
  }
  return -1;
}

void unregister(int slot) {
  if (slot >= 0) registry[static_cast<std::size_t>(slot)].used.store(false, std::memory_order_release);
}

// The end of `path`'s chain of symbolic links (a path that does not exist yet is its own end).
std::string follow_links(const std::string& path) {
  fs::path at = path;
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code error;
    if (!fs::is_symlink(fs::symlink_status(at, error))) return at.string();
    const fs::path next = fs::read_symlink(at, error);
    if (error) throw Error(fmt::format("{}: cannot read the symbolic link: {}", path, error.message()));
    at = next.is_absolute() ? next : at.parent_path() / next;
  }
  throw Error(fmt::format("{}: too many levels of symbolic links", path));
}

// Temporaries of `target` left by processes that are gone: removed, each with a line on stderr.
void remove_leftovers(const std::string& target) {
  const fs::path path(target);
  const fs::path folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  const std::string prefix = path.filename().string() + std::string(kTemporaryMark);
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) {
      std::error_code ignored;
      if (fs::remove(entry.path(), ignored))
        fmt::print(stderr, "courier: removed {}, left by a run that was killed (process {})\n", entry.path().string(),
                   pid);
    }
  }
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    fd_ = ::dup(STDOUT_FILENO);
    if (fd_ < 0) throw_io(path_, "write to standard output", errno);
    return;
  }
  target_ = follow_links(path_);
  struct stat status {};
  if (::stat(target_.c_str(), &status) == 0) {
    if (S_ISDIR(status.st_mode)) throw Error(fmt::format("{}: is a folder; name a file", path_));
    if (!S_ISREG(status.st_mode)) {  // a device, FIFO or socket: written through, never replaced
      fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) throw_io(path_, "open", errno);
      return;
    }
  }
  remove_leftovers(target_);
  // O_EXCL: never clobber another writer's temporary; 0666 lets the umask decide as for any file.
  for (int attempt = 0; fd_ < 0; ++attempt) {
    temporary_path_ = temporary_name(target_);
    fd_ = ::open(temporary_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ < 0 && (errno != EEXIST || attempt > 100)) throw_io(path_, "create", errno);
  }
  slot_ = register_temporary(temporary_path_);
}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
}

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temporary_path_.empty()) ::unlink(temporary_path_.c_str());
  unregister(slot_);
  slot_ = -1;
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
    discard();
    throw_io(path_, "write", error);
  }
  if (!temporary_path_.empty() && ::rename(temporary_path_.c_str(), target_.c_str()) != 0) {
    const int error = errno;
    discard();
    throw_io(path_, "rename the temporary onto", error);
  }
  unregister(slot_);
  slot_ = -1;
  committed_ = true;
}

}  // namespace courier
