/* A stand-in for the CUDA driver (libcuda) and for the runtime calls an nvcc-built launcher makes
 * (linked with `nvcc -cudart none`), for test_tensor_maps.py: no GPU, but every
 * cuTensorMapEncodeTiled call's arguments and every launch's grid, block, shared memory and
 * parameter bytes are written to the file TILE2CU_STAND_IN_LOG names, one line each, in the
 * same words whichever side made them. Both sides then reach the same encoder: the driver's
 * symbol (the Python launcher) or cudaGetDriverEntryPointByVersion (the runtime's encode_map).
 *
 * The "encoded" map is a hash of the arguments, so equal bytes mean equal arguments. The
 * device's compute capability major is TILE2CU_STAND_IN_MAJOR (default 9); an encode returns
 * TILE2CU_STAND_IN_ENCODE_RESULT (default 0, success). The launch's parameter sizes are set with
 * stand_in_set_param_sizes (a launch cannot tell them). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  unsigned x, y, z;
} dim3;

static size_t param_sizes[256];
static int param_count;

void stand_in_set_param_sizes(const char* comma_separated) {
  param_count = 0;
  for (const char* p = comma_separated; *p && param_count < 256;) {
    char* end;
    param_sizes[param_count++] = strtoul(p, &end, 10);
    p = *end == ',' ? end + 1 : end;
  }
}

static int env_int(const char* name, int fallback) {
  const char* v = getenv(name);
  return v && *v ? atoi(v) : fallback;
}

static FILE* log_file(void) {
  const char* path = getenv("TILE2CU_STAND_IN_LOG");
  return fopen(path ? path : "/dev/null", "a");
}

static void log_list(FILE* f, const char* name, const void* values, int n, int wide) {
  fprintf(f, " %s=", name);
  for (int i = 0; i < n; ++i)
    fprintf(f, "%s%llu", i ? "," : "",
            wide ? (unsigned long long)((const uint64_t*)values)[i] : (unsigned long long)((const uint32_t*)values)[i]);
}

static uint64_t fnv(uint64_t h, const void* data, size_t n) {
  for (size_t i = 0; i < n; ++i) h = (h ^ ((const unsigned char*)data)[i]) * 1099511628211ull;
  return h;
}

int cuTensorMapEncodeTiled(void* map, int type, uint32_t rank, void* address, const uint64_t* dims,
                           const uint64_t* strides, const uint32_t* box, const uint32_t* element_strides,
                           int interleave, int swizzle, int l2_promotion, int oob_fill) {
  FILE* f = log_file();
  fprintf(f, "encode type=%d rank=%u address=%#llx", type, rank, (unsigned long long)(uintptr_t)address);
  log_list(f, "dims", dims, (int)rank, 1);
  log_list(f, "strides", strides, (int)rank - 1, 1);
  log_list(f, "box", box, (int)rank, 0);
  log_list(f, "element_strides", element_strides, (int)rank, 0);
  fprintf(f, " interleave=%d swizzle=%d l2=%d oob=%d\n", interleave, swizzle, l2_promotion, oob_fill);
  fclose(f);
  int words[6] = {type, (int)rank, interleave, swizzle, l2_promotion, oob_fill};
  uint64_t h = fnv(14695981039346656037ull, words, sizeof words);
  h = fnv(h, &address, sizeof address);
  h = fnv(h, dims, rank * sizeof *dims);
  h = fnv(h, strides, (rank - 1) * sizeof *strides);
  h = fnv(h, box, rank * sizeof *box);
  h = fnv(h, element_strides, rank * sizeof *element_strides);
  for (int q = 0; q < 16; ++q) ((uint64_t*)map)[q] = h = fnv(h, &q, sizeof q);
  return env_int("TILE2CU_STAND_IN_ENCODE_RESULT", 0);
}

static int record_launch(dim3 grid, dim3 block, size_t smem, void** params) {
  FILE* f = log_file();
  fprintf(f, "launch grid=%u,%u,%u block=%u,%u,%u smem=%zu params=", grid.x, grid.y, grid.z, block.x, block.y,
          block.z, smem);
  for (int i = 0; i < param_count; ++i) {
    fprintf(f, "%s", i ? "|" : "");
    for (size_t b = 0; b < param_sizes[i]; ++b) fprintf(f, "%02x", ((const unsigned char*)params[i])[b]);
  }
  fprintf(f, "\n");
  fclose(f);
  return 0;
}

/* ---- the driver, as python/tile2cu/_driver_api.py declares it ---- */

int cuInit(unsigned flags) { return (int)flags; }
int cuCtxGetCurrent(void** ctx) { *ctx = (void*)0x1000; return 0; }
int cuCtxSetCurrent(void* ctx) { (void)ctx; return 0; }
int cuCtxGetDevice(int* device) { *device = 0; return 0; }
int cuDevicePrimaryCtxRetain(void** ctx, int device) { (void)device; *ctx = (void*)0x1000; return 0; }
int cuDeviceGetAttribute(int* value, int attribute, int device) {
  (void)device;
  *value = attribute == 75 ? env_int("TILE2CU_STAND_IN_MAJOR", 9) : 0;  /* 75: compute capability major */
  return 0;
}
int cuModuleLoadData(void** module, const void* image) { (void)image; *module = (void*)0x2000; return 0; }
int cuModuleGetFunction(void** fn, void* module, const char* name) { (void)module, (void)name; *fn = (void*)0x3000; return 0; }
int cuFuncSetAttribute(void* fn, int attribute, int value) { (void)fn, (void)attribute, (void)value; return 0; }
int cuMemAllocAsync(uint64_t* dptr, size_t bytes, void* stream) { (void)bytes, (void)stream; *dptr = 0x4000; return 0; }
int cuMemcpyHtoDAsync_v2(uint64_t dst, const void* src, size_t bytes, void* stream) {
  (void)dst, (void)src, (void)bytes, (void)stream;
  return 0;
}
int cuMemFreeAsync(uint64_t dptr, void* stream) { (void)dptr, (void)stream; return 0; }
int cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, void* fn, int threads, size_t smem) {
  (void)fn, (void)threads, (void)smem;
  *blocks = 1;
  return 0;
}
int cuLaunchKernel(void* fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                   unsigned smem, void* stream, void** params, void** extra) {
  (void)fn, (void)stream, (void)extra;
  dim3 grid = {gx, gy, gz}, block = {bx, by, bz};
  return record_launch(grid, block, smem, params);
}

/* ---- the runtime calls of an nvcc-built launcher (its kernel launch and registration included) ---- */

static dim3 pushed_grid, pushed_block;
static size_t pushed_smem;
static void* pushed_stream;
static void* fat_binary_handle[1];

void** __cudaRegisterFatBinary(void* fat_binary) { (void)fat_binary; return fat_binary_handle; }
void __cudaRegisterFatBinaryEnd(void** handle) { (void)handle; }
void __cudaUnregisterFatBinary(void** handle) { (void)handle; }
void __cudaRegisterFunction(void** handle, const char* host_fn, char* device_fn, const char* name, int limit,
                            void* tid, void* bid, void* block, void* grid, int* size) {
  (void)handle, (void)host_fn, (void)device_fn, (void)name, (void)limit, (void)tid, (void)bid, (void)block,
      (void)grid, (void)size;
}
char __cudaInitModule(void** handle) { (void)handle; return 1; }
int __cudaGetKernel(void** kernel, const void* fn) { *kernel = (void*)fn; return 0; }
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t smem, void* stream) {
  pushed_grid = grid, pushed_block = block, pushed_smem = smem, pushed_stream = stream;
  return 0;
}
int __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* smem, void** stream) {
  *grid = pushed_grid, *block = pushed_block, *smem = pushed_smem, *stream = pushed_stream;
  return 0;
}
int __cudaLaunchKernel(void* kernel, dim3 grid, dim3 block, void** args, size_t smem, void* stream) {
  (void)kernel, (void)stream;
  return record_launch(grid, block, smem, args);
}
int cudaGetDevice(int* device) { *device = 0; return 0; }
int cudaDeviceGetAttribute(int* value, int attribute, int device) { return cuDeviceGetAttribute(value, attribute, device); }
int cudaFuncSetAttribute(const void* fn, int attribute, int value) { (void)fn, (void)attribute, (void)value; return 0; }
int cudaGetLastError(void) { return 0; }
int cudaGetDriverEntryPointByVersion(const char* symbol, void** fn, unsigned version, unsigned long long flags,
                                     int* status) {
  (void)version, (void)flags;
  *fn = strcmp(symbol, "cuTensorMapEncodeTiled") == 0 ? (void*)cuTensorMapEncodeTiled : NULL;
  *status = *fn ? 0 : 1;  /* cudaDriverEntryPointSuccess, cudaDriverEntryPointSymbolNotFound */
  return 0;
}
