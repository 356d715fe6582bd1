# lit configuration for loopperf's FileCheck suites.
import os
import lit.formats

config.name = "loopperf"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".s", ".test", ".c", ".ll", ".mir"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.loopperf_obj_root, "test", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.loopperf_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%loopperf", os.path.join(config.loopperf_bin_dir, "loopperf")))
config.substitutions.append(("%FileCheck", os.path.join(config.llvm_tools_dir, "FileCheck")))
config.substitutions.append(("%not", os.path.join(config.llvm_tools_dir, "not")))
config.substitutions.append(("%models", os.path.join(config.loopperf_src_root, "models")))

# GCC plugin suites (test/lit/gcc-plugin): the plugin and the GCC it was
# built for (gcc-12 on Debian 12; override with LOOPPERF_GCC).
import shutil
loopperf_gcc_plugin = os.path.join(config.loopperf_lib_dir, "gcc", "loopperf.so")
loopperf_gcc = os.environ.get("LOOPPERF_GCC") or shutil.which("gcc-12") or shutil.which("gcc")
if loopperf_gcc and os.path.exists(loopperf_gcc_plugin):
    config.available_features.add("gcc-plugin")
config.substitutions.append(("%gccplugin", loopperf_gcc_plugin))
config.substitutions.append(("%gcc", loopperf_gcc or "gcc"))

# The clang/llc plugin (llvm-pass/) and the LLVM 19 tools its tests drive.
config.substitutions.append(("%plugin", os.path.join(config.loopperf_lib_dir, "loopperf.so")))
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang")))
config.substitutions.append(("%llc", os.path.join(config.llvm_tools_dir, "llc")))
# Remarks and reports must not depend on the environment of the test run.
config.environment.pop("LOOPPERF_OPTIONS", None)

# loopperf-measure (tools/measure): only its pure parts run in tests; real
# measurements live in bench/.
config.substitutions.append(("%loopperf-measure", os.path.join(config.loopperf_bin_dir, "loopperf-measure")))
# loopperf-gate (tools/gate) and its sample project (test/lit/gate/Inputs).
config.substitutions.append(("%gate", os.path.join(config.loopperf_bin_dir, "loopperf-gate")))
config.substitutions.append(("%srcroot", config.loopperf_src_root))
config.substitutions.append(("%objroot", config.loopperf_obj_root))
