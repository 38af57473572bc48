# tile2cu_add_kernels: transpile cuTile Python kernels at build time and add the generated CUDA
# to a target. Loaded by find_package(tile2cu); needs the imported targets tile2cu::tile2cu
# (the transpiler) and tile2cu::runtime (its headers), which the package defines.
#
#   tile2cu_add_kernels(TARGET <target>
#                       SOURCES <kernel.py>...
#                       [SIGNATURES <file.sigs>...]   # one for all sources, or one per source
#                       [SIG "<signature>"...]        # instead of signature files
#                       [KERNEL <name>]               # which kernel unnamed signatures are for
#                       [LINE_DIRECTIVES]             # #line directives into the Python files
#                       [OUTPUT_DIR <dir>])           # default: <binary dir>/tile2cu/<target>
#
# Without SIGNATURES or SIG, each kernel uses its sidecar <kernel>.sigs. For kernel.py the
# target gets OUTPUT_DIR/kernel.cu (compiled) and OUTPUT_DIR/kernel.cuh (the launchers to
# include), the include directories OUTPUT_DIR and the runtime headers, and CUDA::cudart.
# The transpiler re-runs when the Python file, the signature file, the tool, or a local Python
# module the kernel imports (`import helpers`, `from .util import f`, found next to the file)
# changes; the imports are rescanned on every run.
#
# Requires CMake 3.20 (DEPFILE for custom commands) and the CUDA language enabled.
include_guard(GLOBAL)
cmake_policy(VERSION 3.20...3.31)

function(tile2cu_add_kernels)
  cmake_parse_arguments(PARSE_ARGV 0 arg "LINE_DIRECTIVES" "TARGET;KERNEL;OUTPUT_DIR" "SOURCES;SIGNATURES;SIG")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tile2cu_add_kernels: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET OR NOT TARGET "${arg_TARGET}")
    message(FATAL_ERROR "tile2cu_add_kernels: TARGET must name an existing target (got '${arg_TARGET}')")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "tile2cu_add_kernels: no SOURCES")
  endif()
  if(arg_SIGNATURES AND arg_SIG)
    message(FATAL_ERROR "tile2cu_add_kernels: give SIGNATURES or SIG, not both")
  endif()
  list(LENGTH arg_SOURCES n_sources)
  list(LENGTH arg_SIGNATURES n_sigs)
  if(n_sigs GREATER 1 AND NOT n_sigs EQUAL n_sources)
    message(FATAL_ERROR "tile2cu_add_kernels: ${n_sigs} SIGNATURES for ${n_sources} SOURCES: give one, or one per source")
  endif()
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST languages)
    message(FATAL_ERROR "tile2cu_add_kernels: enable the CUDA language first (project(... LANGUAGES CXX CUDA))")
  endif()
  if(NOT TARGET CUDA::cudart)
    find_package(CUDAToolkit REQUIRED)
  endif()

  set(out_dir "${arg_OUTPUT_DIR}")
  if(NOT out_dir)
    set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/tile2cu/${arg_TARGET}")
  endif()
  get_filename_component(out_dir "${out_dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  file(MAKE_DIRECTORY "${out_dir}")

  set(scan_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/Tile2cuScanImports.cmake")
  set(index 0)
  foreach(source IN LISTS arg_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${source}" NAME_WE)
    get_filename_component(source_dir "${source}" DIRECTORY)
    set(out_cu "${out_dir}/${stem}.cu")
    set(out_cuh "${out_dir}/${stem}.cuh")

    set(options)
    set(depends "${source}" "${scan_script}")
    if(arg_KERNEL)
      list(APPEND options "--kernel" "${arg_KERNEL}")
    endif()
    if(arg_SIGNATURES)
      if(n_sigs EQUAL 1)
        set(sigs "${arg_SIGNATURES}")
      else()
        list(GET arg_SIGNATURES ${index} sigs)
      endif()
      get_filename_component(sigs "${sigs}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      list(APPEND options "--sigs" "${sigs}")
      list(APPEND depends "${sigs}")
    elseif(arg_SIG)
      foreach(sig IN LISTS arg_SIG)
        list(APPEND options "--sig=${sig}")
      endforeach()
    else()
      if(NOT EXISTS "${source_dir}/${stem}.sigs")
        message(FATAL_ERROR "tile2cu_add_kernels: ${source} has no sidecar ${stem}.sigs: pass SIGNATURES or SIG")
      endif()
      list(APPEND options "--sigs" "${source_dir}/${stem}.sigs")
      list(APPEND depends "${source_dir}/${stem}.sigs")
    endif()
    if(arg_LINE_DIRECTIVES)
      list(APPEND options "--line-directives")
    endif()

    file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${source}")
    if(shown MATCHES "^\\.\\./")
      set(shown "${source}")
    endif()
    add_custom_command(
      OUTPUT "${out_cu}" "${out_cuh}"
      COMMAND "${CMAKE_COMMAND}" "-DSOURCE=${source}" "-DDEPFILE=${out_cu}.d" "-DTARGET=${out_cu}"
              -P "${scan_script}"
      COMMAND tile2cu::tile2cu "${source}" -o "${out_cu}" ${options}
      DEPENDS ${depends} tile2cu::tile2cu
      DEPFILE "${out_cu}.d"
      COMMENT "tile2cu: transpiling ${shown}"
      VERBATIM)
    target_sources(${arg_TARGET} PRIVATE "${out_cu}" "${out_cuh}")
    math(EXPR index "${index} + 1")
  endforeach()

  get_target_property(type ${arg_TARGET} TYPE)
  if(type STREQUAL "EXECUTABLE")
    set(scope PRIVATE)
  else()
    set(scope PUBLIC)
  endif()
  target_include_directories(${arg_TARGET} ${scope} "${out_dir}")
  target_link_libraries(${arg_TARGET} ${scope} tile2cu::runtime CUDA::cudart)
  target_compile_features(${arg_TARGET} ${scope} cuda_std_17 cxx_std_17)
endfunction()
