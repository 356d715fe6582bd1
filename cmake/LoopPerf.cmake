# LoopPerf.cmake - turn on loopperf's predictions (plugin + records) for a
# target, for loopperf-gate in CI (docs/ci.md).
#
#   include(/path/to/loopperf/cmake/LoopPerf.cmake)
#   loopperf_enable(mylib [MCPU cpu] [JSON] [PLAN file])
#
# clang (C/C++): -fpass-plugin=<LOOPPERF_CLANG_PLUGIN> -fsave-optimization-record
#   -foptimization-record-passes=loopperf: each object gets <obj>.opt.yaml
#   next to it, with the loopperf remarks only.
# GCC (C/C++): -fplugin=<LOOPPERF_GCC_PLUGIN> -fsave-optimization-record:
#   each object gets <dumpbase>.opt-record.json.gz next to it; with JSON
#   also -fplugin-arg-loopperf-json (<dumpbase>.loopperf.json).
# MCPU: the model to predict for instead of the one -march/-mtune select
#   (clang: -fplugin= as well, so that -mllvm -loopperf-mcpu is known).
# PLAN: a loop plan (loopperf-tune's output, docs/tune.md) the compilers
#   obey: clang -mllvm -loopperf-plan=<file> (with -fplugin= as for MCPU),
#   GCC -fplugin-arg-loopperf-plan=<file>; a relative path is taken from
#   the current source directory, and the target's sources are rebuilt when
#   the plan changes.
# The plugins are LOOPPERF_CLANG_PLUGIN / LOOPPERF_GCC_PLUGIN when set; else
# those of LOOPPERF_ROOT (a loopperf build directory: its lib/loopperf.so and
# lib/gcc/loopperf.so); else, after find_package(LoopPerf), the installed
# plugin for the compiler's major version. A plugin loads only into the
# compiler major version it was built for: a mismatch found here stops the
# configure with a message naming both (an explicit *_PLUGIN path is taken
# as given). Other compilers get nothing (a message says so).
# Records land in the target's object directory; hand the build directory
# to `loopperf-gate compare`/`report`, which searches it.
set(LOOPPERF_ROOT "" CACHE PATH "loopperf build directory (holds lib/loopperf.so)")
set(LOOPPERF_CLANG_PLUGIN "" CACHE FILEPATH "loopperf clang plugin (loopperf.so)")
set(LOOPPERF_GCC_PLUGIN "" CACHE FILEPATH "loopperf GCC plugin (gcc/loopperf.so)")

# _loopperf_plugin(<out> CLANG|GCC LLVM|GCC <compiler name> <major>): the
# plugin for this compiler major version, or a FATAL_ERROR saying why not.
macro(_loopperf_plugin out kind rootkind what major)
  set(${out} "${LOOPPERF_${kind}_PLUGIN}")
  set(_lp_dir lib/loopperf.so)
  if("${kind}" STREQUAL "GCC")
    set(_lp_dir lib/gcc/loopperf.so)
  endif()
  if(NOT ${out} AND LOOPPERF_ROOT)
    set(${out} "${LOOPPERF_ROOT}/${_lp_dir}")
    if(NOT "${LOOPPERF_ROOT_${rootkind}_MAJOR}" STREQUAL "" AND
       NOT "${LOOPPERF_ROOT_${rootkind}_MAJOR}" STREQUAL "${major}")
      message(FATAL_ERROR "loopperf_enable(${target}): ${what} ${CMAKE_${lang}_COMPILER_VERSION} cannot load the plugin in LOOPPERF_ROOT=${LOOPPERF_ROOT}, built for ${what} ${LOOPPERF_ROOT_${rootkind}_MAJOR}: use ${what} ${LOOPPERF_ROOT_${rootkind}_MAJOR} or a loopperf build for ${what} ${major}")
    endif()
  endif()
  if(NOT ${out} AND DEFINED LOOPPERF_${kind}_PLUGIN_VERSIONS)
    if(DEFINED LOOPPERF_${kind}_PLUGIN_${major})
      set(${out} "${LOOPPERF_${kind}_PLUGIN_${major}}")
    else()
      string(REPLACE ";" ", " _lp_have "${LOOPPERF_${kind}_PLUGIN_VERSIONS}")
      message(FATAL_ERROR "loopperf_enable(${target}): ${what} ${CMAKE_${lang}_COMPILER_VERSION} has no loopperf plugin in this installation (plugins for ${what} ${_lp_have}); a plugin loads only into the ${what} major version it was built for")
    endif()
  endif()
endmacro()

function(loopperf_enable target)
  cmake_parse_arguments(LP "JSON" "MCPU;PLAN" "" ${ARGN})
  if(LP_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "loopperf_enable: unknown arguments ${LP_UNPARSED_ARGUMENTS}")
  endif()
  # What LOOPPERF_ROOT's plugins were built for (written by its CMake).
  unset(LOOPPERF_ROOT_LLVM_MAJOR)
  unset(LOOPPERF_ROOT_GCC_MAJOR)
  if(LOOPPERF_ROOT AND EXISTS "${LOOPPERF_ROOT}/lib/loopperf-plugins.cmake")
    include("${LOOPPERF_ROOT}/lib/loopperf-plugins.cmake")
  endif()

  if(LP_PLAN)
    get_filename_component(LP_PLAN "${LP_PLAN}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${LP_PLAN}")
      message(FATAL_ERROR "loopperf_enable(${target}): no plan at '${LP_PLAN}'")
    endif()
    get_target_property(_lp_sources ${target} SOURCES)
    if(_lp_sources)
      set_property(SOURCE ${_lp_sources} TARGET_DIRECTORY ${target}
                   APPEND PROPERTY OBJECT_DEPENDS "${LP_PLAN}")
    endif()
  endif()
  foreach(lang C CXX)
    if(NOT CMAKE_${lang}_COMPILER_LOADED)
      continue()
    endif()
    set(id "${CMAKE_${lang}_COMPILER_ID}")
    set(flags "")
    string(REGEX MATCH "^[0-9]+" major "${CMAKE_${lang}_COMPILER_VERSION}")
    if(id MATCHES "Clang")
      _loopperf_plugin(clang_plugin CLANG LLVM "clang" ${major})
      if(NOT EXISTS "${clang_plugin}")
        message(FATAL_ERROR "loopperf_enable(${target}): no clang plugin at '${clang_plugin}' (set LOOPPERF_ROOT or LOOPPERF_CLANG_PLUGIN, or find_package(LoopPerf))")
      endif()
      list(APPEND flags "-fpass-plugin=${clang_plugin}" -fsave-optimization-record
           -foptimization-record-passes=loopperf)
      if(LP_MCPU OR LP_PLAN)
        list(APPEND flags "-fplugin=${clang_plugin}")
      endif()
      if(LP_MCPU)
        list(APPEND flags "SHELL:-mllvm -loopperf-mcpu=${LP_MCPU}")
      endif()
      if(LP_PLAN)
        list(APPEND flags "SHELL:-mllvm -loopperf-plan=${LP_PLAN}")
      endif()
    elseif(id STREQUAL "GNU")
      _loopperf_plugin(gcc_plugin GCC GCC "GCC" ${major})
      if(NOT EXISTS "${gcc_plugin}")
        message(FATAL_ERROR "loopperf_enable(${target}): no GCC plugin at '${gcc_plugin}' (set LOOPPERF_ROOT or LOOPPERF_GCC_PLUGIN, or find_package(LoopPerf))")
      endif()
      list(APPEND flags "-fplugin=${gcc_plugin}" -fsave-optimization-record)
      if(LP_MCPU)
        list(APPEND flags "-fplugin-arg-loopperf-mcpu=${LP_MCPU}")
      endif()
      if(LP_PLAN)
        list(APPEND flags "-fplugin-arg-loopperf-plan=${LP_PLAN}")
      endif()
      if(LP_JSON)
        list(APPEND flags -fplugin-arg-loopperf-json)
      endif()
    else()
      message(STATUS "loopperf_enable(${target}): ${lang} compiler ${id} has no loopperf plugin")
      continue()
    endif()
    list(TRANSFORM flags PREPEND "$<$<COMPILE_LANGUAGE:${lang}>:")
    list(TRANSFORM flags APPEND ">")
    target_compile_options(${target} PRIVATE ${flags})
  endforeach()
endfunction()
