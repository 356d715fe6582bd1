// TuJson.cpp - write the per-translation-unit JSON record.
#include "TuJson.h"

#include "loopperf/JsonText.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace loopperf::gccplugin {

void TuJson::addLoop(const std::string &function, unsigned line,
                     const std::string &loopJson) {
  loops_.push_back({function, line, loopJson});
}

bool TuJson::write(const std::string &path, const std::string &file,
                   const std::string &model, std::string &error) const {
  using json = nlohmann::ordered_json;
  json doc;
  doc["file"] = file;
  doc["model"] = model;
  json array = json::array();
  for (const Loop &l : loops_) {
    json loop = json::parse(l.json, nullptr, /*allow_exceptions=*/false);
    if (!loop.is_object()) {
      error = "renderJson produced invalid JSON for a loop in " + l.function;
      return false;
    }
    loop["function"] = l.function;
    loop["line"] = l.line;
    array.push_back(std::move(loop));
  }
  doc["loops"] = std::move(array);
  std::ofstream out(path);
  out << jsonText(doc) << "\n";
  out.close();
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

} // namespace loopperf::gccplugin
