// InsnKey.cpp - an insn's content, as far as its translation reads it
// (InsnKey.h).
#include "InsnKey.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "GccHeaders.h"
// clang-format off
#include "predict.h"
// clang-format on

namespace loopperf::gccplugin {
namespace {

/// One word of the key: an integer, or a pointer's value.
template <typename T> void put(InsnKeyWords &Key, T Value) {
  if constexpr (std::is_pointer_v<T>)
    Key.push_back(reinterpret_cast<uintptr_t>(Value));
  else
    Key.push_back(static_cast<uint64_t>(Value));
}

/// An rtx's code, mode and flags but `used` and `frame_related` (which
/// passes set and clear for their own bookkeeping).
void putHeader(InsnKeyWords &Key, const_rtx X) {
  const uint32_t Flags =
      RTX_FLAG(X, jump) | RTX_FLAG(X, call) << 1 |
      RTX_FLAG(X, unchanging) << 2 | RTX_FLAG(X, volatil) << 3 |
      RTX_FLAG(X, in_struct) << 4 | RTX_FLAG(X, return_val) << 5;
  put(Key, static_cast<uint64_t>(GET_CODE(X)) |
               static_cast<uint64_t>(GET_MODE(X)) << 16 |
               static_cast<uint64_t>(Flags) << 32);
}

/// Appends `X` in full; false for what the key does not describe exactly.
/// A label only where `Label` is given, once: its number goes
/// there, not into the key.
bool putRtx(InsnKeyWords &Key, const_rtx X, int *Label) {
  putHeader(Key, X);
  switch (GET_CODE(X)) {
  case REG:
    if (STACK_REGNO_P(REGNO(X)))
      return false; // x87: the output reads the insn's REG_DEAD notes
    put(Key, REGNO(X));
    return true;
  case CONST_INT:
    put(Key, INTVAL(X));
    return true;
  case CONST_DOUBLE: {
    // The value's fields, not the struct's bytes (padding).
    const REAL_VALUE_TYPE *R = CONST_DOUBLE_REAL_VALUE(X);
    put(Key, static_cast<uint32_t>(R->cl | R->decimal << 2 | R->sign << 3 |
                                   R->signalling << 4 | R->canonical << 5));
    put(Key, R->uexp);
    for (unsigned long Word : R->sig)
      put(Key, Word);
    return true;
  }
  case SYMBOL_REF: {
    // The name, its flags (local, TLS model, ...) and the decl whose
    // attributes the output may read. The decl's address could only come
    // back for another tree after GCC's collector freed this one; a hit
    // then also needs the same assembler name and flags, which within one
    // compilation name the same entity (GCC merges a symbol's
    // declarations; constants get fresh ".LCn" labels; local statics a
    // unique suffix), so its text would be the same.
    const char *Name = XSTR(X, 0);
    const size_t Length = std::strlen(Name);
    put(Key, SYMBOL_REF_FLAGS(X));
    put(Key, static_cast<const void *>(SYMBOL_REF_DECL(X)));
    put(Key, Length);
    for (size_t I = 0; I < Length; I += sizeof(uint64_t)) {
      uint64_t Word = 0;
      std::memcpy(&Word, Name + I, std::min(Length - I, sizeof Word));
      put(Key, Word);
    }
    return true;
  }
  case LABEL_REF:  // (label_ref L), or L where the pattern has
  case CODE_LABEL: // (label_ref (match_operand))
    if (!Label || *Label >= 0)
      return false;
    *Label =
        CODE_LABEL_NUMBER(GET_CODE(X) == LABEL_REF ? label_ref_label(X) : X);
    return true;
  case MEM:
    // What the output may test of the access (misaligned_operand: its
    // alignment) besides its address.
    put(Key, MEM_ALIGN(X));
    put(Key, MEM_SIZE_KNOWN_P(X) ? MEM_SIZE(X).to_constant() : int64_t(-1));
    put(Key, MEM_ADDR_SPACE(X));
    return putRtx(Key, XEXP(X, 0), Label);
  case SUBREG:
    put(Key, SUBREG_BYTE(X).to_constant());
    return putRtx(Key, SUBREG_REG(X), Label);
  case CONST_VECTOR:
    put(Key, CONST_VECTOR_NPATTERNS(X));
    put(Key, CONST_VECTOR_NELTS_PER_PATTERN(X));
    break; // then its elements, by the format
  default:
    break;
  }
  const char *Fmt = GET_RTX_FORMAT(GET_CODE(X));
  for (int I = 0; I < GET_RTX_LENGTH(GET_CODE(X)); ++I) {
    switch (Fmt[I]) {
    case 'e':
      if (!putRtx(Key, XEXP(X, I), Label))
        return false;
      break;
    case 'E':
      put(Key, XVECLEN(X, I));
      for (int J = 0; J < XVECLEN(X, I); ++J)
        if (!putRtx(Key, XVECEXP(X, I, J), Label))
          return false;
      break;
    case 'i':
      put(Key, XINT(X, I));
      break;
    case 'w':
      put(Key, XWINT(X, I));
      break;
    default: // labels, strings, trees, unused fields: not described
      return false;
    }
  }
  return true;
}

/// Which set single_set(Insn) is: -1 none, 0 the pattern, 1 + N the Nth
/// element of its PARALLEL.
int singleSetIndex(rtx_insn *Insn) {
  const_rtx Set = single_set(Insn);
  if (!Set)
    return -1;
  const_rtx Pat = PATTERN(Insn);
  if (Set == Pat || GET_CODE(Pat) != PARALLEL)
    return 0;
  for (int I = 0; I < XVECLEN(Pat, 0); ++I)
    if (XVECEXP(Pat, 0, I) == Set)
      return 1 + I;
  return 0;
}

/// Whether jump `Insn` goes to a code label that no jump table follows.
bool toPlainLabel(rtx_insn *Insn) {
  rtx Target = JUMP_LABEL(Insn);
  if (!Target || ANY_RETURN_P(Target) || !LABEL_P(Target))
    return false;
  const rtx_insn *Next = next_insn(as_a<rtx_insn *>(Target));
  return !Next || !JUMP_TABLE_DATA_P(Next);
}

} // namespace

InsnKeyWords functionKey() {
  // The target and optimisation nodes are null for a function without
  // target or optimize attributes (or pragmas); else GCC shares one node
  // per set of options (build_target_option_node and
  // build_optimization_node), referenced by every decl using it. A stale
  // hit needs such a node collected and its address reused for other
  // options: not seen, not proven impossible.
  InsnKeyWords Key;
  tree Decl = current_function_decl;
  put(Key, static_cast<const void *>(Decl ? DECL_FUNCTION_SPECIFIC_TARGET(Decl)
                                          : NULL_TREE));
  put(Key, static_cast<const void *>(
               Decl ? DECL_FUNCTION_SPECIFIC_OPTIMIZATION(Decl) : NULL_TREE));
  put(Key, static_cast<uint8_t>(optimize_function_for_size_p(cfun)));
  put(Key, static_cast<uint8_t>(crtl->maybe_hot_insn_p));
  return Key;
}

bool insnKey(rtx_insn *Insn, InsnKeyWords &Key, int &Label) {
  Label = -1;
  // A jump to a label: its template prints the label (%l), and what else
  // it may print reads the insn's REG_BR_PROB note (%+, with branch hints)
  // or, for a jump to a jump table, a notrack prefix (%!,
  // ix86_notrack_prefixed_insn_p): keyed only where neither applies. Other
  // jumps (returns, indirect) print what the function decides.
  const bool Jump = JUMP_P(Insn);
  if (Jump && (TARGET_BRANCH_PREDICTION_HINTS || !toPlainLabel(Insn)))
    return false;
  if (!Jump && !NONJUMP_INSN_P(Insn))
    return false;
  const int Code = recog_memoized(Insn);
  if (Code < 0)
    return false;
  // The whole pattern, not the operands recog would extract: they are its
  // parts (the rest is the define_insn's, fixed by the code), and the
  // alternative constrain chooses is a function of them and of the
  // enabled alternatives (the target options). An insn seen before is not
  // extracted (extract_constrain_insn_cached: 1,000 instructions).
  put(Key, Code);
  put(Key, singleSetIndex(Insn));
  if (!putRtx(Key, PATTERN(Insn), Jump ? &Label : nullptr))
    return false;
  return !Jump || Label >= 0;
}

std::string labelName(int Number) {
  char Name[32];
  ASM_GENERATE_INTERNAL_LABEL(Name, "L", Number);
  return Name[0] == '*' ? Name + 1 : Name;
}

} // namespace loopperf::gccplugin
