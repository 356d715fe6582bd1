// WriteJson.cpp - the machine-readable result.
#include "Writers.h"

#include "loopperf/JsonText.h"

#include <nlohmann/json.hpp>

namespace loopperf::gate {
namespace {

using Json = nlohmann::ordered_json;

Json side(const LoopRecord *R) {
  if (!R)
    return Json();
  Json J = {{"file", R->File},
            {"line", R->Line},
            {"function", R->Function},
            {"fingerprint", R->Fingerprint},
            {"cycles_per_iteration", R->CyclesPerIteration},
            {"cycles_per_element",
             R->CyclesPerElement ? Json(*R->CyclesPerElement) : Json()},
            {"elements_per_iteration", R->ElementsPerIteration},
            {"model", R->Model},
            {"bottleneck", R->Bottleneck},
            {"bottleneck_resource", R->BottleneckResource},
            {"record", R->Origin}};
  addRoleJson(J, *R);
  return J;
}

} // namespace

std::string writeJson(const GateResult &R) {
  Json Loops = Json::array();
  for (const Verdict &V : R.Loops)
    Loops.push_back({{"status", statusName(V.Outcome)},
                     {"fails", V.Fails},
                     {"allowed", V.Allowed},
                     {"metric", V.unit()},
                     {"before", V.Pair.Base ? Json(V.Before) : Json()},
                     {"after", V.Pair.Cand ? Json(V.After) : Json()},
                     {"matched_by", matchedByName(V.Pair.By)},
                     {"reason", V.Reason},
                     {"baseline", side(V.Pair.Base)},
                     {"candidate", side(V.Pair.Cand)}});
  Json Summary = Json::object();
  for (Status S : {Status::Regressed, Status::OverBudget, Status::Improved,
                   Status::Unchanged, Status::New, Status::Removed})
    Summary[statusName(S)] = R.count(S);
  Summary["failing"] = R.failures();
  Json Doc = {{"result", R.failed() ? "fail" : "pass"},
              {"summary", Summary},
              {"loops", Loops}};
  // jsonText: names that are not UTF-8 get U+FFFD (nlohmann's type_error 316
  // ended the gate with exit 2; found by fuzz/FuzzGateRecord.cpp).
  return jsonText(Doc) + "\n";
}

} // namespace loopperf::gate
