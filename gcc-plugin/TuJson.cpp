// TuJson.cpp - write the per-translation-unit JSON record.
#include "TuJson.h"

#include "LoopJson.h"

#include <fstream>

namespace loopperf::gccplugin {

void TuJson::addLoop(const std::string &function, const std::string &file,
                     unsigned line, std::shared_ptr<const LoopJson> loop) {
  loops_.push_back({function, file, line, std::move(loop)});
}

bool TuJson::write(const std::string &path, const std::string &file,
                   const std::string &model, std::string &error) const {
  Json array = Json::array();
  for (const Loop &l : loops_) {
    Json loop = l.json ? l.json->value : Json::object();
    setSourceLocation(loop, l.function, l.file, l.line);
    array.push_back(std::move(loop));
  }
  std::ofstream out(path);
  out << fileJsonText(file, model, std::move(array));
  out.close();
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

} // namespace loopperf::gccplugin
