// The wheel's tile2cu (TILE2CU_SELF_CONTAINED) runs on any manylinux_2_28 x86-64 Linux, that is
// glibc 2.28 or newer, though it is linked where glibc is newer (2.36 here). Linking binds each
// glibc function to its newest version, and a few of those came after 2.28, most of them from the
// statically linked libstdc++ and libgcc. CMakeLists.txt links with `-Wl,--wrap=NAME` for each of
// them, which sends every reference to NAME in the link to __wrap_NAME below; each __wrap_NAME
// does what NAME does, with what glibc 2.28 already had. scripts/test-wheel.sh checks that the
// binary needs no version above GLIBC_2.28 and runs it on the paths these functions serve.
//
// Why link-time rebinding and not another compiler (zig c++ with a glibc 2.28 target) or a
// manylinux container: every object stays as scripts/build.sh compiled it, so ccache gives the
// wheel's build build/'s objects and only this file and the link are new (docs/reliability.md).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

// `.symver LOCAL, NAME@VERSION` on a name this file only declares makes every call to LOCAL a
// call to that version of NAME. GLIBC_2.2.5 is x86-64 glibc's first version: what each of these
// functions was until glibc moved or replaced it.
#define AT_GLIBC_2_2_5(local, name) __asm__(".symver " #local ", " #name "@GLIBC_2.2.5")

// ---- functions that moved from libpthread.so.0 into libc.so.6 (glibc 2.32, 2.34) --------------
// Same functions; glibc 2.34 keeps the 2.2.5 versions for old binaries. On glibc before 2.34 they
// are found in libpthread.so.0, which CMakeLists.txt therefore links (a stub from 2.34 on).
#define SAME_FUNCTION_AT_2_2_5(result, name, parameters, arguments)                       \
  extern result glibc_2_2_5_##name parameters;                                           \
  AT_GLIBC_2_2_5(glibc_2_2_5_##name, name);                                              \
  result __wrap_##name parameters { return glibc_2_2_5_##name arguments; }

// libgcc's unwinder (pthread_once, __pthread_key_create), libstdc++'s locale set-up and std::pmr
// pools (the rest).
SAME_FUNCTION_AT_2_2_5(int, pthread_once, (pthread_once_t * once, void (*init)(void)), (once, init))
SAME_FUNCTION_AT_2_2_5(int, pthread_key_create, (pthread_key_t * key, void (*destroy)(void *)),
                       (key, destroy))
SAME_FUNCTION_AT_2_2_5(int, __pthread_key_create, (pthread_key_t * key, void (*destroy)(void *)),
                       (key, destroy))
SAME_FUNCTION_AT_2_2_5(int, pthread_key_delete, (pthread_key_t key), (key))
SAME_FUNCTION_AT_2_2_5(void *, pthread_getspecific, (pthread_key_t key), (key))
SAME_FUNCTION_AT_2_2_5(int, pthread_setspecific, (pthread_key_t key, const void *value), (key, value))
SAME_FUNCTION_AT_2_2_5(int, pthread_rwlock_rdlock, (pthread_rwlock_t * lock), (lock))
SAME_FUNCTION_AT_2_2_5(int, pthread_rwlock_wrlock, (pthread_rwlock_t * lock), (lock))
SAME_FUNCTION_AT_2_2_5(int, pthread_rwlock_unlock, (pthread_rwlock_t * lock), (lock))
// The stack-depth guard of src/sema/lower_stmt.cpp.
SAME_FUNCTION_AT_2_2_5(int, pthread_getattr_np, (pthread_t thread, pthread_attr_t * attr),
                       (thread, attr))
SAME_FUNCTION_AT_2_2_5(int, pthread_attr_getstack,
                       (const pthread_attr_t * attr, void **stack, size_t *size), (attr, stack, size))

// ---- exp, exp2, log, log2, pow: new versions in glibc 2.29 -------------------------------------
// 2.29 dropped the SVID error-handling wrapper (matherr, _LIB_VERSION) from these. The 2.2.5
// versions are that wrapper around the same code: for a new program (_LIB_VERSION is POSIX) it
// returns the same values and sets errno as the 2.29 ones do, but for one thing: outside the
// domain (the log of a negative number) the log wrappers return +NaN where 2.29 computes
// (x - x) / (x - x), the x86 default NaN, whose sign bit is set. lower_builtins.cpp and
// lower_operators.cpp fold constants with these, and a NaN's sign can reach the output.
#define FUNCTION_AT_2_2_5(result, name, parameters) \
  extern result glibc_2_2_5_##name parameters;      \
  AT_GLIBC_2_2_5(glibc_2_2_5_##name, name)
FUNCTION_AT_2_2_5(double, exp, (double x));
FUNCTION_AT_2_2_5(double, exp2, (double x));
FUNCTION_AT_2_2_5(double, log, (double x));
FUNCTION_AT_2_2_5(double, log2, (double x));
FUNCTION_AT_2_2_5(double, pow, (double x, double y));

static double as_glibc_2_29_domain_error(double result, double x, int domain_error) {
  return domain_error ? (x - x) / (x - x) : result;
}
double __wrap_exp(double x) { return glibc_2_2_5_exp(x); }
double __wrap_exp2(double x) { return glibc_2_2_5_exp2(x); }
double __wrap_log(double x) {
  double result = glibc_2_2_5_log(x);
  return as_glibc_2_29_domain_error(result, x, isnan(result) && !isnan(x));
}
double __wrap_log2(double x) {
  double result = glibc_2_2_5_log2(x);
  return as_glibc_2_29_domain_error(result, x, isnan(result) && !isnan(x));
}
double __wrap_pow(double x, double y) { return glibc_2_2_5_pow(x, y); }  // its NaN is 2.29's

// ---- stat, fstat, lstat, fstat64: functions since glibc 2.33 ------------------------------------
// Before 2.33 <sys/stat.h> made them inline calls of __xstat and friends with the layout version
// of struct stat, _STAT_VER, which is 1 on x86-64 (where struct stat and struct stat64 are one
// layout). Those are still in glibc, for old binaries. files.cpp checks its inputs and outputs
// with them; libstdc++'s std::filesystem and file streams too.
enum { STAT_LAYOUT_X86_64 = 1 };
extern int glibc_2_2_5___xstat(int layout, const char *path, struct stat *status);
extern int glibc_2_2_5___lxstat(int layout, const char *path, struct stat *status);
extern int glibc_2_2_5___fxstat(int layout, int fd, struct stat *status);
extern int glibc_2_2_5___fxstat64(int layout, int fd, struct stat64 *status);
AT_GLIBC_2_2_5(glibc_2_2_5___xstat, __xstat);
AT_GLIBC_2_2_5(glibc_2_2_5___lxstat, __lxstat);
AT_GLIBC_2_2_5(glibc_2_2_5___fxstat, __fxstat);
AT_GLIBC_2_2_5(glibc_2_2_5___fxstat64, __fxstat64);
int __wrap_stat(const char *path, struct stat *status) {
  return glibc_2_2_5___xstat(STAT_LAYOUT_X86_64, path, status);
}
int __wrap_lstat(const char *path, struct stat *status) {
  return glibc_2_2_5___lxstat(STAT_LAYOUT_X86_64, path, status);
}
int __wrap_fstat(int fd, struct stat *status) {
  return glibc_2_2_5___fxstat(STAT_LAYOUT_X86_64, fd, status);
}
int __wrap_fstat64(int fd, struct stat64 *status) {
  return glibc_2_2_5___fxstat64(STAT_LAYOUT_X86_64, fd, status);
}

// ---- __libc_start_main: new version in glibc 2.34 ----------------------------------------------
// _start (Scrt1.o) calls it with main. Since 2.34 _start passes no `init` and libc runs the
// program's constructors itself (_init, then .init_array); before, _start passed
// __libc_csu_init, which did the same from inside the program, and glibc 2.28 runs no constructor
// without it. glibc 2.34's 2.2.5 version is the same function, which calls `init` instead when
// one is given: passing run_constructors therefore runs them once on every glibc. (.preinit_array
// is the dynamic linker's in both; `fini` has been unused since before 2.28.)
typedef int main_function(int argc, char **argv, char **environment);
extern int glibc_2_2_5___libc_start_main(main_function *main, int argc, char **argv,
                                          main_function *init, void (*fini)(void),
                                          void (*rtld_fini)(void), void *stack_end);
AT_GLIBC_2_2_5(glibc_2_2_5___libc_start_main, __libc_start_main);
extern void _init(void) __attribute__((visibility("hidden")));  // crti.o, the DT_INIT entry
extern main_function *__init_array_start[] __attribute__((visibility("hidden")));  // the linker's
extern main_function *__init_array_end[] __attribute__((visibility("hidden")));

static int run_constructors(int argc, char **argv, char **environment) {
  _init();
  for (main_function **constructor = __init_array_start; constructor != __init_array_end;
       ++constructor)
    (*constructor)(argc, argv, environment);
  return 0;
}

int __wrap___libc_start_main(main_function *main, int argc, char **argv, main_function *init,
                             void (*fini)(void), void (*rtld_fini)(void), void *stack_end) {
  (void)init;  // NULL from 2.34's _start
  (void)fini;
  return glibc_2_2_5___libc_start_main(main, argc, argv, run_constructors, NULL, rtld_fini,
                                       stack_end);
}

// ---- __libc_single_threaded: a variable since glibc 2.32 ----------------------------------------
// libstdc++ (compiled in, and inlined from its headers into every object) skips atomic
// instructions in reference counts while it is nonzero. Zero, "other threads may exist", is
// always a correct value: glibc itself leaves it zero whenever it cannot tell.
char __wrap___libc_single_threaded = 0;

// ---- arc4random: a function since glibc 2.36 ----------------------------------------------------
// libstdc++'s std::random_device ("arc4random" source). glibc's reads the kernel's random
// source through getrandom (2.25), or /dev/urandom on a kernel without it, and ends the process
// when neither gives bytes; so does this one, with 4 bytes per call instead of glibc's buffered
// ChaCha20 stream (the same uniform 32-bit values to the caller).
static void fill_from_urandom(unsigned char *bytes, size_t size) {
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  size_t filled = 0;
  while (fd >= 0 && filled < size) {
    ssize_t got = read(fd, bytes + filled, size - filled);
    if (got > 0)
      filled += (size_t)got;
    else if (got == 0 || errno != EINTR)
      break;
  }
  if (fd >= 0) close(fd);
  if (filled < size) abort();  // glibc: "Fatal glibc error: cannot get entropy for arc4random"
}

uint32_t __wrap_arc4random(void) {
  uint32_t value;
  unsigned char *bytes = (unsigned char *)&value;
  size_t filled = 0;
  while (filled < sizeof value) {
    ssize_t got = getrandom(bytes + filled, sizeof value - filled, 0);
    if (got > 0) {
      filled += (size_t)got;
    } else if (got < 0 && errno == ENOSYS) {
      fill_from_urandom(bytes + filled, sizeof value - filled);
      filled = sizeof value;
    } else if (got < 0 && errno != EINTR) {
      abort();
    }
  }
  return value;
}

// ---- _dl_find_object: a function since glibc 2.35 -----------------------------------------------
// libgcc's unwinder (libgcc_eh.a, linked statically) calls it for every frame a C++ exception
// passes, to find the .eh_frame_hdr of the code at that address. In gcc 12's
// _Unwind_Find_FDE a failure returns "no unwind information" (std::terminate), with no fallback:
// checked in the disassembly of this libgcc_eh.a; so this is a full _dl_find_object, built on
// dl_iterate_phdr (glibc's way before 2.35, and libgcc's before gcc 12). Fields as glibc fills
// them: the object's mapped range (first PT_LOAD's page to the end of the last), its link map,
// its PT_GNU_EH_FRAME.
#ifdef DLFO_EH_SEGMENT_TYPE  // <dlfcn.h> of glibc 2.35+: only there does libgcc call it
struct object_search {
  uintptr_t address;
  struct dl_find_object *result;
};

// The dynamic linker's list of loaded objects, from this program's DT_DEBUG entry (which is
// where debuggers find it too).
static struct link_map *loaded_objects(void) {
  extern ElfW(Dyn) _DYNAMIC[] __attribute__((visibility("hidden")));
  for (ElfW(Dyn) *entry = _DYNAMIC; entry->d_tag != DT_NULL; ++entry)
    if (entry->d_tag == DT_DEBUG && entry->d_un.d_ptr != 0)
      return ((struct r_debug *)entry->d_un.d_ptr)->r_map;
  return NULL;
}

static int find_object_containing(struct dl_phdr_info *object, size_t size, void *data) {
  (void)size;
  struct object_search *search = data;
  uintptr_t page = (uintptr_t)getpagesize();
  uintptr_t start = UINTPTR_MAX, end = 0;
  void *eh_frame = NULL, *dynamic = NULL;
  for (ElfW(Half) i = 0; i < object->dlpi_phnum; ++i) {
    const ElfW(Phdr) *segment = &object->dlpi_phdr[i];
    uintptr_t at = object->dlpi_addr + segment->p_vaddr;
    if (segment->p_type == PT_LOAD) {
      if ((at & ~(page - 1)) < start) start = at & ~(page - 1);
      if (at + segment->p_memsz > end) end = at + segment->p_memsz;
    } else if (segment->p_type == DLFO_EH_SEGMENT_TYPE) {
      eh_frame = (void *)at;
    } else if (segment->p_type == PT_DYNAMIC) {
      dynamic = (void *)at;
    }
  }
  if (search->address < start || search->address >= end) return 0;
  struct dl_find_object *result = search->result;
  result->dlfo_flags = 0;
  result->dlfo_map_start = (void *)start;
  result->dlfo_map_end = (void *)end;
  result->dlfo_link_map = NULL;
  for (struct link_map *map = loaded_objects(); map != NULL; map = map->l_next)
    if ((void *)map->l_ld == dynamic && map->l_addr == object->dlpi_addr)
      result->dlfo_link_map = map;
  result->dlfo_eh_frame = eh_frame;
  return 1;
}

int __wrap__dl_find_object(void *address, struct dl_find_object *result) {
  struct object_search search = {(uintptr_t)address, result};
  return dl_iterate_phdr(find_object_containing, &search) == 1 ? 0 : -1;
}
#endif
