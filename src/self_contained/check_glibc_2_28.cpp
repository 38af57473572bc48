// Checks src/self_contained/glibc_2_28.c against glibc itself: linked with the same --wrap list
// as the wheel's tile2cu (CMake target glibc_2_28_check, run by scripts/test-wheel.sh), so
// __wrap_NAME is the replacement and __real_NAME this machine's glibc NAME. Each replacement must
// give the same results, errno included; and the paths of libstdc++ and libgcc that reach them
// (exceptions, std::random_device, std::call_once, std::pmr pools, constructors) must work.
// Prints one line per check; exits 1 on the first difference.
#include <dlfcn.h>
#include <pthread.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory_resource>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
int __real__dl_find_object(void *, dl_find_object *);
int __wrap__dl_find_object(void *, dl_find_object *);
int __real_stat(const char *, struct stat *);
int __wrap_stat(const char *, struct stat *);
int __real_lstat(const char *, struct stat *);
int __wrap_lstat(const char *, struct stat *);
int __real_fstat(int, struct stat *);
int __wrap_fstat(int, struct stat *);
int __real_fstat64(int, struct stat64 *);
int __wrap_fstat64(int, struct stat64 *);
double __real_exp(double);
double __wrap_exp(double);
double __real_exp2(double);
double __wrap_exp2(double);
double __real_log(double);
double __wrap_log(double);
double __real_log2(double);
double __wrap_log2(double);
double __real_pow(double, double);
double __wrap_pow(double, double);
int __real_pthread_getattr_np(pthread_t, pthread_attr_t *);
int __wrap_pthread_getattr_np(pthread_t, pthread_attr_t *);
int __real_pthread_attr_getstack(const pthread_attr_t *, void **, size_t *);
int __wrap_pthread_attr_getstack(const pthread_attr_t *, void **, size_t *);
uint32_t __wrap_arc4random(void);
}

namespace {

void fail(const std::string &what) {
  std::fprintf(stderr, "glibc_2_28_check: FAIL: %s\n", what.c_str());
  std::exit(1);
}

// Constructors must run once, before main: _start reaches them through the replacement
// __libc_start_main.
int constructor_runs = 0;
__attribute__((constructor)) void count_constructor_run() { ++constructor_runs; }
struct CountedGlobal {
  CountedGlobal() { ++constructor_runs; }
} counted_global;

void check_dl_find_object(void *address, const char *what) {
  dl_find_object glibc, replacement;
  std::memset(&glibc, 0x5a, sizeof glibc);
  std::memset(&replacement, 0x5a, sizeof replacement);
  int glibc_result = __real__dl_find_object(address, &glibc);
  int replacement_result = __wrap__dl_find_object(address, &replacement);
  if (glibc_result != replacement_result) fail(std::string("_dl_find_object result for ") + what);
  if (glibc.dlfo_flags != replacement.dlfo_flags || glibc.dlfo_map_start != replacement.dlfo_map_start ||
      glibc.dlfo_map_end != replacement.dlfo_map_end || glibc.dlfo_link_map != replacement.dlfo_link_map ||
      glibc.dlfo_eh_frame != replacement.dlfo_eh_frame)
    fail(std::string("_dl_find_object fields for ") + what);
}

template <class Status, class GlibcCall, class ReplacementCall>
void check_stat(const char *what, GlibcCall glibc, ReplacementCall replacement) {
  Status a, b;
  std::memset(&a, 0, sizeof a);
  std::memset(&b, 0, sizeof b);
  errno = 0;
  int ra = glibc(&a);
  int errno_a = errno;
  errno = 0;
  int rb = replacement(&b);
  if (ra != rb || errno_a != errno || std::memcmp(&a, &b, sizeof a) != 0) fail(what);
}

bool same_double(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_math(const char *name, double (*glibc)(double), double (*replacement)(double)) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  for (double x : {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.0, 10.0, 1e-310, 5e-324, 709.7, 710.0, 1024.0,
                   1025.0, -745.0, -746.0, -1075.0, -1e6, 1e300, inf, -inf, nan}) {
    errno = 0;
    double a = glibc(x);
    int errno_a = errno;
    errno = 0;
    double b = replacement(x);
    if (!same_double(a, b) || errno_a != errno) fail(std::string(name) + "(" + std::to_string(x) + ")");
  }
}

void check_pow() {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const double pairs[][2] = {{2, 0.5},   {3, 1.25},  {0, -1},    {-0.0, -3}, {-0.0, -2}, {0, 0},
                             {-8, 1.0 / 3}, {10, 400}, {-10, 401}, {10, -400}, {-10, -401},
                             {nan, 0},  {1, nan},   {inf, -1},  {-inf, 3},  {0.5, inf}};
  for (const auto &xy : pairs) {
    errno = 0;
    double a = __real_pow(xy[0], xy[1]);
    int errno_a = errno;
    errno = 0;
    double b = __wrap_pow(xy[0], xy[1]);
    if (!same_double(a, b) || errno_a != errno)
      fail("pow(" + std::to_string(xy[0]) + ", " + std::to_string(xy[1]) + ")");
  }
}

void check_stack_bounds() {
  pthread_attr_t a, b;
  if (__real_pthread_getattr_np(pthread_self(), &a) != 0 ||
      __wrap_pthread_getattr_np(pthread_self(), &b) != 0)
    fail("pthread_getattr_np");
  void *stack_a, *stack_b;
  size_t size_a, size_b;
  __real_pthread_attr_getstack(&a, &stack_a, &size_a);
  __wrap_pthread_attr_getstack(&b, &stack_b, &size_b);
  if (stack_a != stack_b || size_a != size_b) fail("pthread_attr_getstack");
  pthread_attr_destroy(&a);
  pthread_attr_destroy(&b);
}

[[noreturn]] __attribute__((noinline)) void throw_through(int depth) {
  std::string keep_alive(static_cast<size_t>(depth) + 20, 'x');  // destroyed while unwinding
  if (depth == 0) throw std::runtime_error("unwound");
  throw_through(depth - 1);
}

}  // namespace

int main(int, char **argv) {
  if (constructor_runs != 2) fail("constructors ran " + std::to_string(constructor_runs) + " times");
  std::puts("ok constructors (__libc_start_main)");

  int local = 0;
  check_dl_find_object(reinterpret_cast<void *>(&main), "this program");
  check_dl_find_object(reinterpret_cast<void *>(&std::printf), "libc");
  check_dl_find_object(reinterpret_cast<void *>(static_cast<double (*)(double)>(&::cos)), "libm");
  check_dl_find_object(reinterpret_cast<void *>(getauxval(AT_SYSINFO_EHDR) + 64), "the vDSO");
  check_dl_find_object(&local, "the stack");
  check_dl_find_object(nullptr, "address 0");
  try {
    throw_through(8);
  } catch (const std::runtime_error &error) {
    if (std::string(error.what()) != "unwound") fail("exception message");
  }
  std::puts("ok _dl_find_object: same fields as glibc's; an exception unwinds through 9 frames");

  int fd = open(argv[0], O_RDONLY | O_CLOEXEC);
  for (const char *path : {"/", const_cast<const char *>(argv[0]), "/proc/self/exe", "/proc/self/fd/0", "/no/such/file", ""}) {
    check_stat<struct stat>(path, [&](struct stat *s) { return __real_stat(path, s); },
                            [&](struct stat *s) { return __wrap_stat(path, s); });
    check_stat<struct stat>(path, [&](struct stat *s) { return __real_lstat(path, s); },
                            [&](struct stat *s) { return __wrap_lstat(path, s); });
  }
  for (int descriptor : {fd, 0, -1, 12345}) {
    check_stat<struct stat>("fstat", [&](struct stat *s) { return __real_fstat(descriptor, s); },
                            [&](struct stat *s) { return __wrap_fstat(descriptor, s); });
    check_stat<struct stat64>("fstat64", [&](struct stat64 *s) { return __real_fstat64(descriptor, s); },
                              [&](struct stat64 *s) { return __wrap_fstat64(descriptor, s); });
  }
  close(fd);
  std::puts("ok stat, lstat, fstat, fstat64: same results and errno as glibc's");

  check_math("exp", __real_exp, __wrap_exp);
  check_math("exp2", __real_exp2, __wrap_exp2);
  check_math("log", __real_log, __wrap_log);
  check_math("log2", __real_log2, __wrap_log2);
  check_pow();
  std::puts("ok exp, exp2, log, log2, pow: same bits and errno as glibc 2.29's versions");

  check_stack_bounds();
  std::once_flag once;
  int calls = 0;
  for (int i = 0; i < 3; ++i) std::call_once(once, [&] { ++calls; });
  if (calls != 1) fail("std::call_once");
  std::pmr::synchronized_pool_resource pool;  // pthread keys and read-write locks
  {
    std::pmr::vector<std::pmr::string> strings(&pool);
    for (int i = 0; i < 1000; ++i) strings.emplace_back(std::string(40, static_cast<char>('a' + i % 26)));
  }
  std::puts("ok pthread functions: stack bounds as glibc's; std::call_once; std::pmr pool");

  std::random_device device("arc4random");  // libstdc++'s arc4random source
  std::set<uint32_t> drawn;
  for (int i = 0; i < 64; ++i) {
    drawn.insert(device());
    drawn.insert(__wrap_arc4random());
  }
  if (drawn.size() < 120) fail("arc4random repeats: " + std::to_string(drawn.size()) + " of 128 distinct");
  std::puts("ok arc4random: std::random_device(\"arc4random\") draws distinct values");
  return 0;
}
