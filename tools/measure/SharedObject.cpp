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
  if (handle_)
    dlclose(handle_);
  if (!tmpDir_.empty()) {
    for (const char *f : {"/harness.s", "/harness.so", "/cc.log"})
      unlink((tmpDir_ + f).c_str());
    rmdir(tmpDir_.c_str());
  }
}

bool SharedObject::open(const std::string &path, std::string &error) {
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char *e = dlerror();
    error = "cannot load " + path + ": " + (e ? e : "unknown error");
    return false;
  }
  return true;
}

bool SharedObject::assembleAndOpen(const std::string &asmText,
                                   std::string &error) {
  char tmpl[] = "/tmp/loopperf-measure-XXXXXX";
  if (!mkdtemp(tmpl)) {
    error = "cannot create a temporary directory";
    return false;
  }
  tmpDir_ = tmpl;
  std::string src = tmpDir_ + "/harness.s", lib = tmpDir_ + "/harness.so",
              log = tmpDir_ + "/cc.log";
  {
    std::ofstream out(src);
    out << asmText;
    if (!out) {
      error = "cannot write " + src;
      return false;
    }
  }
  const char *cc = std::getenv("LOOPPERF_MEASURE_CC");
  std::string cmd = std::string(cc && *cc ? cc : "cc") +
                    " -shared -nostdlib -o '" + lib + "' '" + src + "' > '" +
                    log + "' 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream in(log);
    std::string msg((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
    error = "assembling the harness failed:\n" + msg;
    return false;
  }
  return open(lib, error);
}

void *SharedObject::symbol(const std::string &name) const {
  return handle_ ? dlsym(handle_, name.c_str()) : nullptr;
}

} // namespace loopperf::measure
