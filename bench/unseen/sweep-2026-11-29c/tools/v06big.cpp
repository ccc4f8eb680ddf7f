#include "v06.h"
#include <cstdio>
int main() { v06::Sizes s{2, 1610612736, 8, 8}; std::string e = v06::check(0x10000000000, 0x20000000000, 0x30000000000, s); std::printf("C++ check(): \"%s\"\n", e.c_str()); }
