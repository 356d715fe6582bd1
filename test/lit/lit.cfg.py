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
