// WriteJson.cpp - the machine-readable result.
#include "Writers.h"

#include "loopperf/JsonText.h"

#include <nlohmann/json.hpp>

namespace loopperf::gate {
namespace {

using Json = nlohmann::ordered_json;

Json side(const LoopRecord *r) {
  if (!r)
    return Json();
  return {{"file", r->file},
          {"line", r->line},
          {"function", r->function},
          {"fingerprint", r->fingerprint},
          {"cycles_per_iteration", r->cyclesPerIteration},
          {"cycles_per_element",
           r->cyclesPerElement ? Json(*r->cyclesPerElement) : Json()},
          {"elements_per_iteration", r->elementsPerIteration},
          {"model", r->model},
          {"bottleneck", r->bottleneck},
          {"bottleneck_resource", r->bottleneckResource},
          {"record", r->origin}};
}

} // namespace

std::string writeJson(const GateResult &r) {
  Json loops = Json::array();
  for (const Verdict &v : r.loops)
    loops.push_back({{"status", statusName(v.status)},
                     {"fails", v.fails},
                     {"allowed", v.allowed},
                     {"metric", v.unit()},
                     {"before", v.pair.base ? Json(v.before) : Json()},
                     {"after", v.pair.cand ? Json(v.after) : Json()},
                     {"matched_by", matchedByName(v.pair.by)},
                     {"reason", v.reason},
                     {"baseline", side(v.pair.base)},
                     {"candidate", side(v.pair.cand)}});
  Json summary = Json::object();
  for (Status s : {Status::Regressed, Status::OverBudget, Status::Improved,
                   Status::Unchanged, Status::New, Status::Removed})
    summary[statusName(s)] = r.count(s);
  summary["failing"] = r.failures();
  Json doc = {{"result", r.failed() ? "fail" : "pass"},
              {"summary", summary},
              {"loops", loops}};
  // jsonText: names that are not UTF-8 get U+FFFD (nlohmann's type_error 316
  // ended the gate with exit 2; found by fuzz/FuzzGateRecord.cpp).
  return jsonText(doc) + "\n";
}

} // namespace loopperf::gate
