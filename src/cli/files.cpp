#include "cli/files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tile2cu::cli {

namespace {

std::string describe(const struct stat& st) {
  if (S_ISDIR(st.st_mode)) return "a directory";
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "a device";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  return "not a regular file";
}

// Closes a file descriptor when it goes out of scope.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

// True when `path` already holds exactly `text` (then it is not rewritten).
bool holds(const fs::path& path, const std::string& text) {
  std::string existing, error;
  return read_input_file(path, existing, error) && existing == text;
}

bool check_output(const fs::path& path, const std::vector<fs::path>& inputs, std::string& error) {
  std::string name = path.filename().string();
  if (name.empty() || name == "." || name == "..") {
    error = fmt::format("cannot write {}: not a file name", path.string());
    return false;
  }
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f || c == '"') {
      error = fmt::format("cannot write {:?}: an output's file name may not hold control characters or '\"'",
                          path.string());
      return false;
    }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    error = fmt::format("cannot write {}: it is {}; tile2cu writes only regular files", path.string(), describe(st));
    return false;
  }
  for (const fs::path& input : inputs)
    if (same_file(path, input)) {
      error = fmt::format("cannot write {}: it is an input of this run", path.string());
      return false;
    }
  return true;
}

}  // namespace

bool read_input_file(const fs::path& path, std::string& out, std::string& error) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer before fstat can refuse it.
  Fd file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) {
    error = fmt::format("cannot read {}: {}", path.string(), std::strerror(errno));
    return false;
  }
  struct stat st;
  if (::fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = fmt::format("cannot read {}: it is {}; tile2cu reads only regular files", path.string(), describe(st));
    return false;
  }
  if (static_cast<std::size_t>(st.st_size) > kMaxInputBytes) {
    error = fmt::format("cannot read {}: it has {} bytes; tile2cu reads files of at most {} MiB", path.string(),
                        st.st_size, kMaxInputBytes >> 20);
    return false;
  }
  // Read to the end, but never past the cap (the file may grow while it is read).
  out.assign(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t size = 0;
  for (;;) {
    if (size == out.size()) out.resize(std::min(out.size() + 4096, kMaxInputBytes + 1));
    if (size == out.size()) break;
    ssize_t n = ::read(file.fd, out.data() + size, out.size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = fmt::format("cannot read {}: {}", path.string(), std::strerror(errno));
      return false;
    }
    if (n == 0) break;
    size += static_cast<std::size_t>(n);
  }
  if (size > kMaxInputBytes) {
    error = fmt::format("cannot read {}: it has more than {} MiB", path.string(), kMaxInputBytes >> 20);
    return false;
  }
  out.resize(size);
  return true;
}

bool write_outputs(const std::vector<OutputFile>& outputs, const std::vector<fs::path>& inputs,
                   std::string& error) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!check_output(outputs[i].first, inputs, error)) return false;
    for (size_t j = 0; j < i; ++j)
      if (outputs[j].first.lexically_normal() == outputs[i].first.lexically_normal()) {
        error = fmt::format("cannot write {} twice: the .cu and its .cuh need two names", outputs[i].first.string());
        return false;
      }
  }
  std::vector<std::pair<fs::path, fs::path>> written;  // temporary -> destination
  auto discard = [&] {
    std::error_code ec;
    for (const auto& w : written) fs::remove(w.first, ec);
  };
  for (const auto& [path, text] : outputs) {
    if (holds(path, text)) continue;
    fs::path tmp = path;
    tmp += fmt::format(".tmp{}", static_cast<long>(::getpid()));
    Fd file{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)};
    if (file.fd < 0) {
      error = fmt::format("cannot write {}: {}", tmp.string(), std::strerror(errno));
      discard();
      return false;
    }
    written.emplace_back(tmp, path);
    if (!write_all(file.fd, text)) {
      error = fmt::format("cannot write {}: {}", tmp.string(), std::strerror(errno));
      discard();
      return false;
    }
  }
  for (const auto& [tmp, path] : written) {
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
      error = fmt::format("cannot rename {} to {}: {}", tmp.string(), path.string(), ec.message());
      discard();
      return false;
    }
  }
  return true;
}

bool write_stdout(std::string_view text, std::string& error) {
  errno = 0;
  bool ok = std::fwrite(text.data(), 1, text.size(), stdout) == text.size();
  ok = std::fflush(stdout) == 0 && ok && !std::ferror(stdout);
  if (!ok) error = fmt::format("cannot write standard output: {}", std::strerror(errno ? errno : EIO));
  return ok;
}

}  // namespace tile2cu::cli
