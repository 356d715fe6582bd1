// FmtStatic.cpp - {fmt}'s compiled part inside the GCC plugin, so that the
// plugin needs neither libfmt.so nor libstdc++.so (gcc-plugin/CMakeLists.txt
// says why): format-inl.h holds the definitions libfmt.so is built from; the
// two templates the engine uses are instantiated for char, as the library's
// own format.cc does.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {
template FMT_API auto thousands_sep_impl(locale_ref)
    -> thousands_sep_result<char>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
} // namespace detail
FMT_END_NAMESPACE
