//===- IrMutator.h - mutations of MLIR text that keep it mostly parsable --===//
//
// Random byte flips rarely survive MLIR's parser, so the compile fuzzer
// (CompileFuzzer.cpp) mutates loop IR the way a person editing it would:
// another number, element type, operand, op of the same family or unit
// attribute; a line deleted, duplicated or swapped. Most results still
// parse, so the verifiers, legality and the lowering see them.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_TEST_FUZZ_IRMUTATOR_H
#define STAGECRAFT_TEST_FUZZ_IRMUTATOR_H

#include <random>
#include <string>

namespace stagecraft::fuzz {

/// Applies one text mutation to `text` (loop IR, possibly followed by "\0"
/// and a schedule). Returns false when none applied (e.g. no candidates).
bool mutateIrText(std::string &text, std::minstd_rand &rng);

} // namespace stagecraft::fuzz

#endif // STAGECRAFT_TEST_FUZZ_IRMUTATOR_H
