# LoopPerf.cmake - turn on loopperf's predictions (plugin + records) for a
# target, for loopperf-gate in CI (docs/ci.md).
#
#   include(/path/to/loopperf/cmake/LoopPerf.cmake)
#   loopperf_enable(mylib [MCPU cpu] [JSON])
#
# clang (C/C++): -fpass-plugin=<LOOPPERF_CLANG_PLUGIN> -fsave-optimization-record
#   -foptimization-record-passes=loopperf: each object gets <obj>.opt.yaml
#   next to it, with the loopperf remarks only.
# GCC (C/C++): -fplugin=<LOOPPERF_GCC_PLUGIN> -fsave-optimization-record:
#   each object gets <dumpbase>.opt-record.json.gz next to it; with JSON
#   also -fplugin-arg-loopperf-json (<dumpbase>.loopperf.json).
# MCPU: the model to predict for instead of the one -march/-mtune select
#   (clang: -fplugin= as well, so that -mllvm -loopperf-mcpu is known).
# The plugins are found from LOOPPERF_ROOT (a loopperf build directory: its
# lib/loopperf.so and lib/gcc/loopperf.so) unless LOOPPERF_CLANG_PLUGIN /
# LOOPPERF_GCC_PLUGIN are set. Other compilers get nothing (a message says so).
# Records land in the target's object directory; hand the build directory
# to `loopperf-gate compare`/`report`, which searches it.
set(LOOPPERF_ROOT "" CACHE PATH "loopperf build directory (holds lib/loopperf.so)")
set(LOOPPERF_CLANG_PLUGIN "" CACHE FILEPATH "loopperf clang plugin (loopperf.so)")
set(LOOPPERF_GCC_PLUGIN "" CACHE FILEPATH "loopperf GCC plugin (gcc/loopperf.so)")

function(loopperf_enable target)
  cmake_parse_arguments(LP "JSON" "MCPU" "" ${ARGN})
  if(LP_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "loopperf_enable: unknown arguments ${LP_UNPARSED_ARGUMENTS}")
  endif()
  set(clang_plugin "${LOOPPERF_CLANG_PLUGIN}")
  if(NOT clang_plugin AND LOOPPERF_ROOT)
    set(clang_plugin "${LOOPPERF_ROOT}/lib/loopperf.so")
  endif()
  set(gcc_plugin "${LOOPPERF_GCC_PLUGIN}")
  if(NOT gcc_plugin AND LOOPPERF_ROOT)
    set(gcc_plugin "${LOOPPERF_ROOT}/lib/gcc/loopperf.so")
  endif()

  foreach(lang C CXX)
    if(NOT CMAKE_${lang}_COMPILER_LOADED)
      continue()
    endif()
    set(id "${CMAKE_${lang}_COMPILER_ID}")
    set(flags "")
    if(id MATCHES "Clang")
      if(NOT EXISTS "${clang_plugin}")
        message(FATAL_ERROR "loopperf_enable(${target}): no clang plugin at '${clang_plugin}' (set LOOPPERF_ROOT or LOOPPERF_CLANG_PLUGIN)")
      endif()
      list(APPEND flags "-fpass-plugin=${clang_plugin}" -fsave-optimization-record
           -foptimization-record-passes=loopperf)
      if(LP_MCPU)
        list(APPEND flags "-fplugin=${clang_plugin}" "SHELL:-mllvm -loopperf-mcpu=${LP_MCPU}")
      endif()
    elseif(id STREQUAL "GNU")
      if(NOT EXISTS "${gcc_plugin}")
        message(FATAL_ERROR "loopperf_enable(${target}): no GCC plugin at '${gcc_plugin}' (set LOOPPERF_ROOT or LOOPPERF_GCC_PLUGIN)")
      endif()
      list(APPEND flags "-fplugin=${gcc_plugin}" -fsave-optimization-record)
      if(LP_MCPU)
        list(APPEND flags "-fplugin-arg-loopperf-mcpu=${LP_MCPU}")
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
