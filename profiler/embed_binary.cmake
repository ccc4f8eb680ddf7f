# cmake -DINPUT=file -DOUTPUT=file.cpp -DSYMBOL=name -P embed_binary.cmake
# Writes `extern const unsigned char name[] = {...};` holding INPUT's bytes (plus a trailing 0,
# so text inputs are also NUL-terminated), for cuModuleLoadData.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hexlen)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# Break the initializer into lines of 32 bytes to keep compilers and editors comfortable.
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){32})" "\\1\n" bytes "${bytes}")
math(EXPR size "${hexlen} / 2")
file(WRITE "${OUTPUT}"
  "// Generated from ${INPUT} by embed_binary.cmake. Do not edit.\n"
  "#include <cstddef>\n"
  "alignas(16) extern const unsigned char ${SYMBOL}[] = {\n${bytes}\n0x00};\n"
  "extern const std::size_t ${SYMBOL}_size = ${size};\n")
