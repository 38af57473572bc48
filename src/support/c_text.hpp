// Text that comes from outside (file names) placed safely into generated C++.
#pragma once

#include <string>
#include <string_view>

namespace tile2cu {

// The body of a C string literal holding `text`: quotes, backslashes and control bytes escaped,
// so a file name like `k"q.py` or one holding a newline stays one token in `#line N "..."`.
std::string c_string_body(std::string_view text);

// The inverse of c_string_body (for readers of our own #line directives).
std::string c_string_unescape(std::string_view body);

// `text` for a `//` comment: control bytes shown as \xNN (a newline cannot end the comment and
// start a line of code) and no trailing backslash (which would splice the next line in).
std::string comment_safe(std::string_view text);

}  // namespace tile2cu
