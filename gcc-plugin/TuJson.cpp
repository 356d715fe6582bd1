// TuJson.cpp - write the per-translation-unit JSON record.
#include "TuJson.h"

#include "LoopJson.h"

#include <fstream>

namespace loopperf::gccplugin {

void TuJson::addLoop(const std::string &Function, const std::string &File,
                     unsigned Line, std::shared_ptr<const LoopJson> Loop) {
  Loops.push_back({Function, File, Line, std::move(Loop)});
}

bool TuJson::write(const std::string &Path, const std::string &File,
                   const std::string &Model, std::string &Error) const {
  Json Array = Json::array();
  for (const Loop &L : Loops) {
    Json Loop = L.Json ? L.Json->Value : Json::object();
    setSourceLocation(Loop, L.Function, L.File, L.Line);
    Array.push_back(std::move(Loop));
  }
  std::ofstream Out(Path);
  Out << fileJsonText(File, Model, std::move(Array));
  Out.close();
  if (!Out) {
    Error = "cannot write '" + Path + "'";
    return false;
  }
  return true;
}

} // namespace loopperf::gccplugin
