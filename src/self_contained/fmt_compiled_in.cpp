// fmt's compiled part, for a tile2cu that carries no libfmt.so (TILE2CU_SELF_CONTAINED: the
// wheel). Every other file includes fmt as it does against libfmt.so, so its objects are the same
// in both builds (ccache serves the wheel's build from build/'s objects). Header-only fmt
// (FMT_HEADER_ONLY) would instead compile fmt's implementation into every file, which about
// doubles their compile time.
#include <fmt/format-inl.h>

// format.h declares these `extern template` outside header-only mode: the library defines them.
FMT_BEGIN_NAMESPACE
namespace detail {
template FMT_API auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;
}  // namespace detail
FMT_END_NAMESPACE
