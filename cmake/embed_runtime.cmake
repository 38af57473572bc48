# Writes OUT: a C++ file defining tile2cu::embedded_runtime_headers(), the text of every
# runtime header DIR/* (runtime/tile2cu/), so `tile2cu --vendor` can copy the ones a generated
# file includes wherever the binary was copied to.
file(GLOB files ${DIR}/*.cuh ${DIR}/*.hpp)
list(SORT files)
set(body "// Generated from runtime/tile2cu/* by cmake/embed_runtime.cmake.\n#include \"cli/runtime_headers.hpp\"\nnamespace tile2cu {\nstd::span<const EmbeddedFile> embedded_runtime_headers() {\n  static const EmbeddedFile files[] = {\n")
foreach(f ${files})
  get_filename_component(name ${f} NAME)
  file(READ ${f} content)
  string(FIND "${content}" ")t2c_rt\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${f} contains the raw-string delimiter )t2c_rt\"")
  endif()
  string(APPEND body "    {\"tile2cu/${name}\", R\"t2c_rt(${content})t2c_rt\"},\n")
endforeach()
string(APPEND body "  };\n  return files;\n}\n}  // namespace tile2cu\n")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
