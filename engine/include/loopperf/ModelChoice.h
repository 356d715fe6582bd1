// ModelChoice.h - which machine model a loop is predicted with: one chooser
// for the CLI, the clang plugin and the GCC plugin.
//
// The model follows the code, never the build host:
//   1. a model file the user named (an override is resolved against the
//      built-in models);
//   2. else a CPU the user named (the front end's mcpu option), "native"
//      being the build host: the model measured on this kind of machine if
//      there is one (HostCpu.h), else the compiler's own name for the host,
//      else the CPUID table of hostCpuModelName();
//   3. else the tuning CPU (-mtune, clang's "tune-cpu") when it names a core
//      that has a model and differs from the target CPU (GCC sets -mtune
//      from -march): the compilers schedule for it, and so do we;
//   4. else the target CPU (-march/-mcpu, clang's "target-cpu") when it names
//      a core;
//   5. else, for a generic x86-64 target (isGenericX86Cpu), DefaultX86Model.
// A named CPU without a model is an error, never a silent substitute, and so
// is a model for another ISA than the code's. Every front end words its
// remarks from the same `basis` and `note`.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

// C++17-clean (the GCC plugin's GCC-facing files include it): no
// MachineModel.h here.
namespace loopperf {

class MachineModel;

/// What a front end knows about the code and what its user asked for.
struct ModelRequest {
  std::string ModelFile; ///< a model or override file (wins when non-empty)
  std::string Cpu;       ///< a CPU the user named, or "native"; "" = none
  /// How this front end spells the option that named `cpu`, for `basis`:
  /// "--mcpu", "-fplugin-arg-loopperf-mcpu", "mcpu" (LOOPPERF_OPTIONS).
  std::string CpuOption = "mcpu";
  std::string TargetCpu; ///< -march / -mcpu / "target-cpu"; may be empty
  std::string TuneCpu;   ///< -mtune / "tune-cpu"; may be empty
  /// The ISA of the code ("x86-64", "aarch64", as MachineModel::Isa).
  std::string TargetIsa = "x86-64";
  /// The compiler's own name for the build host (LLVM's
  /// sys::getHostCPUName()), used for "native" when no model was measured
  /// on this kind of machine; "" = use hostCpuModelName().
  std::string CompilerHostCpu;
};

struct ModelChoice {
  enum class FailureKind {
    None,
    ModelFile,   ///< the model file cannot be read or parsed
    NoModel,     ///< no built-in model for the CPU
    IsaMismatch, ///< the model is for another ISA than the code
  };
  const MachineModel *Model = nullptr; ///< null: `error` says why
  FailureKind Failure = FailureKind::None;
  std::string Error;
  /// The model's name (model->name), for code that cannot see MachineModel.
  std::string Name;
  std::string Cpu; ///< the CPU the prediction stands for ("" with a file)
  /// How the model was chosen, always set with a model: "-mtune=haswell",
  /// "-march=cascadelake", "default model for -march=x86-64
  /// -mtune=generic", "mcpu=native (epyc-kvm-host)", "model file m.json".
  std::string Basis;
  /// What a one-line summary should add after the model's name, "" when the
  /// model is a curated model of exactly the CPU the code was built for:
  /// the basis when the model was not the target CPU's, "the
  /// skylake-avx512 model, for cascadelake" for an alias, and "LLVM-
  /// generated, no curated overlay: ..." for a model without one.
  std::string Note;
  bool Curated = false; ///< cites sources beyond LLVM's scheduling model
};

/// Looks up a built-in model by CPU name (findBuiltinModel in the binaries;
/// tests pass their own).
/// (The same type as ModelIO.h's BaseModelResolver.)
using ModelLookup = std::function<const MachineModel *(std::string_view Name)>;

/// One per compilation (or per CLI run): caches the model file it loaded.
/// Not shared between threads.
class ModelChooser {
public:
  explicit ModelChooser(ModelLookup Builtin) : Builtin(std::move(Builtin)) {}
  ModelChoice choose(const ModelRequest &Request);

private:
  ModelLookup Builtin;
  /// Model files by path, loaded once: the model, or null and the error.
  std::map<std::string,
           std::pair<std::shared_ptr<const MachineModel>, std::string>>
      Files;
};

/// The built-in model name for the build host from its CPUID family/model:
/// the measured model when there is one, else the LLVM CPU name of the core
/// generation ("znver4", "skylake-avx512", ...), "" when unknown.
std::string hostCpuModelName();

} // namespace loopperf
