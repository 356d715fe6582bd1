// Registration.cpp - how the pass gets into clang's and llc's codegen
// pipeline: after every late machine pass (post-RA scheduling, block
// placement, the target's addPreEmitPass fixups, funclet layout, stack map
// liveness, LiveDebugValues), where MachineSanitizerBinaryMetadata
// (machine-sanmd) sits, before the target's addPreEmitPass2 passes that
// emit machine code directly (x86: thunks, CFI, LVI hardening, pseudo
// probes, bundle unpacking) and the AsmPrinter. docs/llvm-pass.md.
//
// LLVM 21 and later (RegisterTargetPassConfigCallback, in its own header
// llvm/Target/RegisterTargetPassConfigCallback.h): the callback runs when
// each TargetPassConfig is created and inserts LoopPerfPass after
// machine-sanmd with TargetPassConfig::insertPass.
//
// LLVM 19 has no way for a plugin to add a machine pass to the codegen
// pipeline. What works: when the library is loaded, the PassInfo of
// machine-sanmd gets a new constructor that builds a LoopPerfPass holding
// the original pass, which still runs on functions with its trigger
// (!pcsections). The pass thus takes machine-sanmd's slot, the same
// position.
//
// This file and mc/LLVMCompat.h are the only ones that test the LLVM
// version. The pass is also registered under its own name, so that
//   llc -load=loopperf.so -run-pass=loopperf file.mir
// runs it alone, as LLVM tests its machine passes. llvmGetPassPluginInfo
// makes the same library loadable with clang -fpass-plugin= and lld
// --load-pass-plugin=; all the work happens at load time.
#include "LoopPerfPass.h"
#include "Options.h"
#include "PlanPass.h"

#include "loopperf/Version.h"

#include "llvm/CodeGen/Passes.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/InitializePasses.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Passes/PassBuilder.h"

#if LLVM_VERSION_MAJOR >= 21
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

using namespace llvm;
using loopperf::llvmpass::LoopPerfPass;

namespace {

RegisterPass<LoopPerfPass> RegisterByName("loopperf",
                                          "loopperf loop throughput remarks",
                                          /*CFGOnly=*/false,
                                          /*is_analysis=*/false);

#if LLVM_VERSION_MAJOR >= 21

/// Runs for every TargetPassConfig (clang, llc, lld's LTO backends) before
/// it builds the pipeline; insertPass makes TargetPassConfig::addPass add
/// a LoopPerfPass (default constructor, through RegisterByName's PassInfo)
/// right after machine-sanmd.
RegisterTargetPassConfigCallback InsertAfterSanMD([](TargetMachine &,
                                                     PassManagerBase &,
                                                     TargetPassConfig *PC) {
  if (PC)
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
  // The machine pass is added at load time (above). The IR pass that
  // applies a loop plan joins clang's and opt's pipeline only when a plan
  // is given, at the vectorizer's start (PlanPass.h).
  return {LLVM_PLUGIN_API_VERSION, "loopperf", loopperf::Version,
          [](PassBuilder &PB) {
            PB.registerVectorizerStartEPCallback(
                [](FunctionPassManager &FPM, OptimizationLevel) {
                  std::vector<std::string> Problems;
                  loopperf::llvmpass::PassOptions O =
                      loopperf::llvmpass::readOptions(Problems);
                  if (!O.Off && !O.PlanFile.empty())
                    FPM.addPass(loopperf::llvmpass::PlanPass(
                        loopperf::llvmpass::loadPlan(O.PlanFile)));
                });
          }};
}
