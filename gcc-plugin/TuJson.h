// TuJson.h - loopperf's own JSON record of one translation unit.
//
// GCC-free and C++17-clean: the loops are opaque LoopJson values (the
// engine's loopJson objects, built in LoopRemarks.cpp), so no JSON library
// header reaches the GCC-facing sources. The document is the one every
// loopperf producer writes (loopperf/Json.h, docs/json.md): {"file": ...,
// "model": ..., "loops": [loopJson object + "function", "file", "line"]}.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace loopperf::gccplugin {

struct LoopJson; ///< one loop's JSON object (LoopJson.h)

class TuJson {
public:
  /// Adds the loop with where it is ("file" "" and "line" 0 when unknown).
  void addLoop(const std::string &Function, const std::string &File,
               unsigned Line, std::shared_ptr<const LoopJson> Loop);
  /// Writes the record; false with `error` set on failure.
  bool write(const std::string &Path, const std::string &File,
             const std::string &Model, std::string &Error) const;

private:
  struct Loop {
    std::string Function;
    std::string File;
    unsigned Line;
    std::shared_ptr<const LoopJson> Json;
  };
  std::vector<Loop> Loops;
};

} // namespace loopperf::gccplugin
