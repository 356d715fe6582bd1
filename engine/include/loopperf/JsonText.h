// JsonText.h - every JSON document loopperf writes, as text, one way.
//
// Header-only and free of nlohmann's headers (a template on the document
// type), so the gate, which does not link the engine, uses it too.
#pragma once

#include <string>

namespace loopperf {

/// `doc` as text, indented by `indent` spaces (-1: one line). Strings that
/// are not valid UTF-8 (file and symbol names from other people's builds)
/// get U+FFFD for their bad bytes instead of nlohmann's type_error 316:
/// a record is never lost, and a compiler never aborted, over a name.
template <class Json> std::string jsonText(const Json &Doc, int Indent = 2) {
  return Doc.dump(Indent, ' ', false, Json::error_handler_t::replace);
}

} // namespace loopperf
