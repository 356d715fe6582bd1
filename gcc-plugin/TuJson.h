// TuJson.h - loopperf's own JSON record of one translation unit.
//
// GCC-free and C++17-clean. The schema is the CLI's --json one:
// {"file": ..., "model": ..., "loops": [renderJson object + "function",
// "line"]}.
#pragma once

#include <string>
#include <vector>

namespace loopperf::gccplugin {

class TuJson {
public:
  /// `loopJson` is one renderJson object.
  void addLoop(const std::string &function, unsigned line,
               const std::string &loopJson);
  /// Writes the record; false with `error` set on failure.
  bool write(const std::string &path, const std::string &file,
             const std::string &model, std::string &error) const;

private:
  struct Loop {
    std::string function;
    unsigned line;
    std::string json;
  };
  std::vector<Loop> loops_;
};

} // namespace loopperf::gccplugin
