# lit configuration for Stagecraft's dialect, pass and tool tests.
import os
import shutil
import sys

import lit.formats

config.name = "Stagecraft"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.stagecraft_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in",
                   "unit", "profiler", "app", "Inputs"]

config.substitutions.append(("%assets", os.path.join(config.stagecraft_src_root, "assets")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%bench", os.path.join(config.stagecraft_src_root, "bench")))
config.substitutions.append(("%python", sys.executable))

path = [config.stagecraft_tools_dir, config.llvm_tools_dir]
if config.cuda_bin_dir:
    path.append(config.cuda_bin_dir)
config.environment["PATH"] = os.pathsep.join(path + [config.environment.get("PATH", "")])

if shutil.which("ptxas", path=os.pathsep.join(path + ["/usr/local/cuda/bin"])):
    config.available_features.add("ptxas")
