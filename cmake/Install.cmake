# Install.cmake - what `cmake --install` puts beside the tools and plugins
# (their own install() rules are next to their targets):
#   <libdir>/cmake/LoopPerf/   LoopPerfConfig.cmake (+ version), LoopPerf.cmake
#   <libdir>/pkgconfig/loopperf.pc
#   <mandir>/man1/<tool>.1     generated from each tool's --help by help2man
#   <datadir>/bash-completion/completions/<tool>
# Build directories for several LLVM versions may install into one prefix:
# plugins go to per-version folders and the package files find them all.
include(CMakePackageConfigHelpers)

# A build directory used as LOOPPERF_ROOT says which compiler versions its
# plugins load into, for loopperf_enable's check.
string(REGEX MATCH "^[0-9]+" loopperf_cxx_major "${CMAKE_CXX_COMPILER_VERSION}")
set(loopperf_gcc_major "")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set(loopperf_gcc_major ${loopperf_cxx_major})
endif()
file(WRITE ${CMAKE_BINARY_DIR}/lib/loopperf-plugins.cmake
  "# Written by loopperf's CMake: the compiler versions this build's plugins are for.\n"
  "set(LOOPPERF_ROOT_LLVM_MAJOR ${LLVM_VERSION_MAJOR})\n"
  "set(LOOPPERF_ROOT_GCC_MAJOR \"${loopperf_gcc_major}\")\n")
set(LOOPPERF_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/LoopPerf)
configure_package_config_file(cmake/LoopPerfConfig.cmake.in
  ${CMAKE_BINARY_DIR}/LoopPerfConfig.cmake INSTALL_DESTINATION ${LOOPPERF_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/LoopPerfConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/LoopPerfConfig.cmake
              ${CMAKE_BINARY_DIR}/LoopPerfConfigVersion.cmake
              cmake/LoopPerf.cmake
        DESTINATION ${LOOPPERF_CMAKE_DIR})

# pkg-config: written at install time, so that it names every plugin in the
# prefix (several build directories may install there).
install(CODE "
  set(prefix \"\${CMAKE_INSTALL_PREFIX}\")
  set(libdir \"${CMAKE_INSTALL_LIBDIR}\")
  file(GLOB plugins RELATIVE \"\${prefix}/\${libdir}/loopperf\"
       \"\${prefix}/\${libdir}/loopperf/*/loopperf.so\")
  list(SORT plugins)
  set(vars \"\")
  foreach(p \${plugins})
    get_filename_component(d \"\${p}\" DIRECTORY)
    string(REPLACE \"llvm-\" \"clang\" d \"\${d}\")
    string(REPLACE \"gcc-\" \"gcc\" d \"\${d}\")
    string(APPEND vars \"\${d}_plugin=\\\${plugindir}/\${p}\\n\")
  endforeach()
  file(MAKE_DIRECTORY \"\${prefix}/\${libdir}/pkgconfig\")
  file(WRITE \"\${prefix}/\${libdir}/pkgconfig/loopperf.pc\"
\"prefix=\${prefix}
bindir=\\\${prefix}/${CMAKE_INSTALL_BINDIR}
libdir=\\\${prefix}/\${libdir}
plugindir=\\\${libdir}/loopperf
\${vars}
Name: loopperf
Description: Predicted cycles per iteration of innermost loops (clang and GCC plugins, CLI, CI gate)
Version: ${PROJECT_VERSION}
\")
  message(STATUS \"Installing: \${prefix}/\${libdir}/pkgconfig/loopperf.pc\")
")

# Man pages from the tools' own --help/--version (help2man, Debian's
# help2man package; without it there are no man pages and a message says so).
find_program(LOOPPERF_HELP2MAN help2man)
set(loopperf_man_tools loopperf loopperf-gate loopperf-measure loopperf-models loopperf-tune)
set(loopperf_man_names
  "predicted cycles per iteration of the innermost loops in x86-64 assembly"
  "compare loopperf's predictions between two builds (CI perf-regression gate)"
  "measure cycles per iteration of loops on this machine"
  "list, check and show loopperf's machine models"
  "choose unroll and interleave factors from loopperf's predictions")
if(LOOPPERF_HELP2MAN)
  set(pages "")
  foreach(tool name IN ZIP_LISTS loopperf_man_tools loopperf_man_names)
    if(NOT TARGET ${tool}) # the LLVM-only build has no loopperf-measure
      continue()
    endif()
    set(page ${CMAKE_BINARY_DIR}/man/${tool}.1)
    add_custom_command(OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
      COMMAND ${LOOPPERF_HELP2MAN} --no-info --no-discard-stderr
              --name=${name} --output=${page} $<TARGET_FILE:${tool}>
      DEPENDS ${tool}
      COMMENT "Man page ${tool}.1"
      VERBATIM)
    list(APPEND pages ${page})
  endforeach()
  add_custom_target(loopperf-man ALL DEPENDS ${pages})
  install(FILES ${pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "help2man not found: no man pages (scripts/install-deps.sh installs it)")
endif()

foreach(tool ${loopperf_man_tools})
  if(NOT TARGET ${tool})
    continue()
  endif()
  install(FILES cmake/loopperf-completion.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
          RENAME ${tool})
endforeach()
