# Writes INPUT as a C++ raw string literal named NAME into OUTPUT (build time).
file(READ "${INPUT}" content)
string(FIND "${content}" ")stagecraft\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )stagecraft\"")
endif()
file(WRITE "${OUTPUT}.tmp" "static const char ${NAME}[] = R\"stagecraft(${content})stagecraft\";\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
