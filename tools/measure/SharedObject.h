// SharedObject.h - assembling generated harness code into a shared object
// with the system compiler driver, and loading symbols from it.
#pragma once

#include <string>

namespace loopperf::measure {

class SharedObject {
public:
  SharedObject() = default;
  ~SharedObject();
  SharedObject(const SharedObject &) = delete;
  SharedObject &operator=(const SharedObject &) = delete;

  /// dlopen()s `path`; false with `error` set on failure.
  bool open(const std::string &Path, std::string &Error);
  /// Writes `asmText` to a temporary directory, assembles and links it with
  /// `cc -shared` (`cc` from $LOOPPERF_MEASURE_CC, default "cc") and opens it.
  bool assembleAndOpen(const std::string &AsmText, std::string &Error);
  /// The address of `name`, nullptr if absent.
  void *symbol(const std::string &Name) const;

private:
  void *Handle = nullptr;
  std::string TmpDir;
};

} // namespace loopperf::measure
