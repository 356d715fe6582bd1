// SharedObject.cpp - see SharedObject.h.
#include "SharedObject.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace loopperf::measure {

SharedObject::~SharedObject() {
  if (Handle)
    dlclose(Handle);
  if (!TmpDir.empty()) {
    for (const char *F : {"/harness.s", "/harness.so", "/cc.log"})
      unlink((TmpDir + F).c_str());
    rmdir(TmpDir.c_str());
  }
}

bool SharedObject::open(const std::string &Path, std::string &Error) {
  Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Handle) {
    const char *E = dlerror();
    Error = "cannot load " + Path + ": " + (E ? E : "unknown error");
    return false;
  }
  return true;
}

bool SharedObject::assembleAndOpen(const std::string &AsmText,
                                   std::string &Error) {
  char Tmpl[] = "/tmp/loopperf-measure-XXXXXX";
  if (!mkdtemp(Tmpl)) {
    Error = "cannot create a temporary directory";
    return false;
  }
  TmpDir = Tmpl;
  std::string Src = TmpDir + "/harness.s", Lib = TmpDir + "/harness.so",
              Log = TmpDir + "/cc.log";
  {
    std::ofstream Out(Src);
    Out << AsmText;
    if (!Out) {
      Error = "cannot write " + Src;
      return false;
    }
  }
  const char *Cc = std::getenv("LOOPPERF_MEASURE_CC");
  std::string Cmd = std::string(Cc && *Cc ? Cc : "cc") +
                    " -shared -nostdlib -o '" + Lib + "' '" + Src + "' > '" +
                    Log + "' 2>&1";
  if (std::system(Cmd.c_str()) != 0) {
    std::ifstream In(Log);
    std::string Msg((std::istreambuf_iterator<char>(In)),
                    std::istreambuf_iterator<char>());
    Error = "assembling the harness failed:\n" + Msg;
    return false;
  }
  return open(Lib, Error);
}

void *SharedObject::symbol(const std::string &Name) const {
  return Handle ? dlsym(Handle, Name.c_str()) : nullptr;
}

} // namespace loopperf::measure
