// LoopJson.h - the opaque loop object of LoopRemarks.h and TuJson.h: one
// engine loopJson value. C++20 side only (loopperf_gcc_core).
#pragma once

#include "loopperf/Json.h"

namespace loopperf::gccplugin {

struct LoopJson {
  Json Value;
};

} // namespace loopperf::gccplugin
