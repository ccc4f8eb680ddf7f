// Force-included into every file of the fuzz build (FuzzFlags.cmake).
//
// Under ASan, LLVM's headers (llvm/Support/Compiler.h) turn on poisoning in
// inline allocator code: BumpPtrAllocator poisons each new slab and
// unpoisons each allocation from it. Debian's libLLVM/libMLIR are not built
// with ASan, so their copy of that code never unpoisons; when our inline
// code starts a slab and the library allocates from it (MLIR's attribute
// storage uniquer does), every use of that memory is reported as
// use-after-poison. Making the poisoning calls no-ops here gives our inline
// code the library's behaviour; ASan still checks all heap, stack and global
// accesses of our code.
#pragma once
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))
#endif
#endif
