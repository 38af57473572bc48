// `tile2cu --emit=html`: one self-contained page (inline CSS and JS, nothing fetched) with the
// Python kernel and the generated CUDA side by side. Each Python statement is linked to the code
// it became (hover or click highlights both sides) and annotated with tile shapes, dtypes,
// layouts, the CTA's thread count and its shared memory use.
//
// It works on the text the pipeline already produces: the .cu emitted with #line directives
// (which say which Python line each stretch of code came from; they are hidden on the page), the
// layout and thread constants in that .cu, and the IR text (value names and types).
#pragma once

#include <string>

namespace tile2cu {

struct HtmlViewInput {
  std::string python_path;    // the Python file as the #line directives name it
  std::string python_source;
  std::string cu_name;        // the .cu as its #line directives name it ("vector_add.cu")
  std::string cu;             // generated with line_directives = true
  std::string cuh_name;
  std::string cuh;
  std::string ir;             // TranspileResult::ir
  std::string version;        // tile2cu's version, for the page footer
};

std::string render_html_view(const HtmlViewInput& input);

}  // namespace tile2cu
