// GccHeaders.h - the GCC 12 plugin headers, in the one order that works.
//
// Include this last, after every standard and engine header: GCC's system.h
// poisons and redefines names (malloc, toupper, ...) that the C++ standard
// library headers use. recog.h needs insn-config.h before it.
#pragma once

// clang-format off
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "cfgloop.h"
#include "rtl.h"
#include "memmodel.h"
#include "emit-rtl.h"
#include "insn-config.h"
#include "recog.h"
#include "output.h"
#include "regs.h"
#include "dumpfile.h"
#include "diagnostic-core.h"
#include "tm_p.h"
#include "rtl-iter.h"
// clang-format on
