//===- PredictionCheck.h - what every timeline prediction must satisfy -*- C++ -*-===//
//
// The fuzzers' oracle for a timeline prediction (the compile driver's and
// the model's own fuzzer): a failed prediction says why; a successful one
// has finite, in-range numbers, zones on its rows and units, and a Chrome
// trace that parses back.
//
//===----------------------------------------------------------------------===//
#ifndef STAGECRAFT_TEST_FUZZ_PREDICTIONCHECK_H
#define STAGECRAFT_TEST_FUZZ_PREDICTIONCHECK_H

#include "core/Timeline/Simulator.h"

#include <string>

namespace stagecraft::fuzz {

/// "" when `p` is sound, else what is wrong with it.
std::string predictionProblem(const timeline::Prediction &p, const timeline::HopperModel &model);

} // namespace stagecraft::fuzz

#endif // STAGECRAFT_TEST_FUZZ_PREDICTIONCHECK_H
