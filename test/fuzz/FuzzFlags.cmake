# Compiler flags of the fuzz build (STAGECRAFT_FUZZ=ON, its own build directory:
# scripts/fuzz-build.sh). Every source of the project compiled in this build
# (core/, passes/, the fuzz targets) gets libFuzzer's coverage instrumentation
# and the sanitizers; the fuzz targets link libFuzzer itself (-fsanitize=fuzzer,
# in test/fuzz/CMakeLists.txt).
#
# Debian's libMLIR.so / libLLVM.so are gcc-built Release libraries (NDEBUG, RTTI,
# libstdc++): clang code links with them through the same libstdc++, and
# CMAKE_BUILD_TYPE=Release keeps -DNDEBUG so inline header code (DenseMap's
# debug epochs) matches the libraries. The libraries themselves are not
# instrumented: ASan sees their heap (malloc is intercepted process-wide) but
# not their own out-of-bounds reads, and their code adds no coverage.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "STAGECRAFT_FUZZ needs clang with libFuzzer: configure with "
          "-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 (scripts/fuzz-build.sh does)")
endif()
set(STAGECRAFT_SANITIZERS "address,undefined" CACHE STRING
    "Sanitizers of the fuzz build (-fsanitize=...), beside libFuzzer's coverage")
# -O1: fast enough to fuzz, far faster to compile than -O3 under ASan.
set(CMAKE_C_FLAGS_RELEASE "-O1 -DNDEBUG")
set(CMAKE_CXX_FLAGS_RELEASE "-O1 -DNDEBUG")
# -Wno-deprecated-declarations: libstdc++ 12's std::stable_sort calls
# get_temporary_buffer, which clang 22 flags in every file that sorts.
add_compile_options(-fsanitize=fuzzer-no-link,${STAGECRAFT_SANITIZERS}
                    -fno-sanitize-recover=all -fno-omit-frame-pointer -gline-tables-only
                    -Wno-deprecated-declarations)
add_link_options(-fsanitize=${STAGECRAFT_SANITIZERS})
# LLVM's allocators must not poison memory the (uninstrumented) library hands
# out: see llvm-asan-shim.h.
add_compile_options(-include ${CMAKE_CURRENT_LIST_DIR}/llvm-asan-shim.h)
