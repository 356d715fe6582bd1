// Registration.cpp - how the pass gets into clang's and llc's codegen
// pipeline.
//
// LLVM 19 has no way for a plugin to add a machine pass to the codegen
// pipeline. What works (docs/llvm-pass.md): when the library is loaded,
// the PassInfo of MachineSanitizerBinaryMetadata - the last machine pass
// before the AsmPrinter, after post-RA scheduling, block placement and the
// targets' pre-emit fixups - gets a new constructor that builds a
// LoopPerfPass holding the original pass, which still runs on functions
// with its trigger (!pcsections). With LLVM 21 and later,
// RegisterTargetPassConfigCallback inserts the pass after that one instead.
//
// The pass is also registered under its own name, so that
//   llc -load=loopperf.so -run-pass=loopperf file.mir
// runs it alone, as LLVM tests its machine passes. llvmGetPassPluginInfo
// makes the same library loadable with clang -fpass-plugin= and lld
// --load-pass-plugin=; all the work happens at load time.
#include "LoopPerfPass.h"

#include "llvm/CodeGen/Passes.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/InitializePasses.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

#if LLVM_VERSION_MAJOR >= 21
#include "llvm/CodeGen/TargetPassConfig.h"
#endif

using namespace llvm;
using loopperf::llvmpass::LoopPerfPass;

namespace {

RegisterPass<LoopPerfPass> RegisterByName("loopperf",
                                          "loopperf loop throughput remarks",
                                          /*CFGOnly=*/false,
                                          /*is_analysis=*/false);

#if LLVM_VERSION_MAJOR >= 21

RegisterTargetPassConfigCallback InsertAfterSanMD([](TargetMachine &,
                                                     PassManagerBase &,
                                                     TargetPassConfig *PC) {
  PC->insertPass(&MachineSanitizerBinaryMetadataID, &LoopPerfPass::ID);
});

#else

/// The displaced pass's own constructor. Written once, while the library
/// is being loaded (before any compilation thread exists); read-only after.
PassInfo::NormalCtor_t DisplacedCtor = nullptr;

Pass *createInSlot() {
  std::unique_ptr<MachineFunctionPass> Displaced;
  if (DisplacedCtor)
    Displaced.reset(static_cast<MachineFunctionPass *>(DisplacedCtor()));
  return new LoopPerfPass(std::move(Displaced));
}

struct TakeSanMDSlot {
  TakeSanMDSlot() {
    PassRegistry &Registry = *PassRegistry::getPassRegistry();
    initializeMachineSanitizerBinaryMetadataPass(Registry);
    const PassInfo *PI =
        Registry.getPassInfo(&MachineSanitizerBinaryMetadataID);
    if (!PI || PI->getNormalCtor() == &createInSlot)
      return;
    DisplacedCtor = PI->getNormalCtor();
    const_cast<PassInfo *>(PI)->setNormalCtor(&createInSlot);
  }
} TakeSlot;

#endif

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK
    __attribute__((visibility("default"))) ::llvm::PassPluginLibraryInfo
    llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "loopperf", "0.1", [](PassBuilder &) {}};
}
