#include "frontend/ast_printer.hpp"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace tile2cu {
namespace {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

// Shortest text that reads back to the same double; always recognisable as a float.
std::string format_float(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, ec == std::errc() ? end : buffer);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        else
          out += c;  // UTF-8 passes through unchanged
    }
  }
  return out + "\"";
}

std::string join_exprs(const std::vector<ast::ExprPtr>& exprs) {
  std::string out;
  for (const ast::ExprPtr& e : exprs) {
    out += ' ';
    out += print_expr(e);
  }
  return out;
}

// f"a{x!r:>{w}}" prints as (fstring "a" (field (name x) !r (spec ">" (field (name w))))).
std::string fstring_pieces(const std::vector<ast::FStringPiece>& pieces) {
  std::string out;
  for (const ast::FStringPiece& piece : pieces) {
    out += ' ';
    if (!piece.value) {
      out += quote(piece.text);
      continue;
    }
    out += "(field " + print_expr(piece.value);
    if (piece.conversion) out += std::string(" !") + piece.conversion;
    if (piece.has_format_spec) out += " (spec" + fstring_pieces(piece.format_spec) + ")";
    out += ")";
  }
  return out;
}

std::string expr_text(const ast::Expr& e) {
  return std::visit(
      Overloaded{
          [](const ast::Name& n) { return "(name " + n.id + ")"; },
          [](const ast::IntLit& n) { return ast::int128_to_string(n.value); },
          [](const ast::FloatLit& n) { return format_float(n.value); },
          [](const ast::BoolLit& n) { return std::string(n.value ? "True" : "False"); },
          [](const ast::NoneLit&) { return std::string("None"); },
          [](const ast::StrLit& n) { return quote(n.value); },
          [](const ast::Attribute& n) {
            return fmt::format("(attr {} {})", print_expr(n.value), n.attr);
          },
          [](const ast::Slice& n) {
            return fmt::format("(slice {} {} {})", print_expr(n.lower), print_expr(n.upper),
                               print_expr(n.step));
          },
          [](const ast::Lambda& n) {
            std::vector<std::string> params;
            for (const auto& p : n.def->params) params.push_back(p.name);
            return fmt::format("(lambda ({}) ...)", fmt::join(params, " "));
          },
          [](const ast::Subscript& n) {
            return fmt::format("(subscript {} {})", print_expr(n.value), print_expr(n.index));
          },
          [](const ast::Starred& n) { return fmt::format("(starred {})", print_expr(n.value)); },
          [](const ast::Call& n) {
            std::string out = "(call " + print_expr(n.func) + join_exprs(n.args);
            for (const ast::Keyword& k : n.keywords)
              out += fmt::format(" (kw {} {})", k.name.empty() ? "**" : k.name,
                                 print_expr(k.value));
            return out + ")";
          },
          [](const ast::Binary& n) {
            return fmt::format("(binop {} {} {})", ast::binary_op_token(n.op), print_expr(n.lhs),
                               print_expr(n.rhs));
          },
          [](const ast::Unary& n) {
            const char* op = n.op == ast::UnaryOp::Neg   ? "-"
                             : n.op == ast::UnaryOp::Pos ? "+"
                             : n.op == ast::UnaryOp::Invert ? "~"
                                                            : "not";
            return fmt::format("(unary {} {})", op, print_expr(n.operand));
          },
          [](const ast::BoolChain& n) {
            return fmt::format("({}{})", n.op == ast::BoolOp::And ? "and" : "or",
                               join_exprs(n.values));
          },
          [](const ast::Compare& n) {
            std::string out = "(compare " + print_expr(n.left);
            for (size_t i = 0; i < n.ops.size() && i < n.rights.size(); ++i)
              out += fmt::format(" {} {}", ast::compare_op_token(n.ops[i]),
                                 print_expr(n.rights[i]));
            return out + ")";
          },
          [](const ast::IfExp& n) {
            return fmt::format("(ifexp {} if {} else {})", print_expr(n.then_value),
                               print_expr(n.cond), print_expr(n.else_value));
          },
          [](const ast::TupleExpr& n) { return "(tuple" + join_exprs(n.elts) + ")"; },
          [](const ast::ListExpr& n) { return "(list" + join_exprs(n.elts) + ")"; },
          [](const ast::DictExpr& n) {
            std::string out = "(dict";
            for (const auto& item : n.items)
              out += item.key ? fmt::format(" ({} : {})", print_expr(item.key), print_expr(item.value))
                              : " (** " + print_expr(item.value) + ")";
            return out + ")";
          },
          [](const ast::EllipsisLit&) { return std::string("..."); },
          [](const ast::FString& n) { return "(fstring" + fstring_pieces(n.pieces) + ")"; },
          [](const ast::Yield& n) {
            return n.value ? "(yield " + print_expr(n.value) + ")" : std::string("(yield)");
          },
          [](const ast::UnsupportedExpr& n) { return "(unsupported " + quote(n.what) + ")"; },
      },
      e.kind);
}

std::string param_text(const ast::Param& p) {
  std::string name = p.kind == ast::Param::Kind::VarArgs  ? "*" + p.name
                     : p.kind == ast::Param::Kind::KwArgs ? "**" + p.name
                                                          : p.name;
  if (!p.annotation && !p.default_value) return name;
  std::string out = "(" + name;
  if (p.annotation) out += " : " + print_expr(p.annotation);
  if (p.default_value) out += " = " + print_expr(p.default_value);
  return out + ")";
}

std::string alias_text(const ast::ImportAlias& a) {
  return a.asname.empty() ? "(" + a.name + ")" : fmt::format("({} as {})", a.name, a.asname);
}

class Printer {
 public:
  std::string run(const ast::Module& module) {
    out_ = "(module\n";
    body(module.body, 1);
    out_ += ")\n";
    return std::move(out_);
  }

 private:
  void line(int indent, const std::string& text) {
    out_.append(size_t(indent) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }

  void stmt_line(int indent, const std::string& text, const ast::Stmt& s) {
    line(indent, fmt::format("{} @{}:{}", text, s.range.line, s.range.col));
  }

  void body(const ast::Body& stmts, int indent) {
    for (const ast::StmtPtr& s : stmts) stmt(*s, indent);
  }

  void else_body(const ast::Body& orelse, int indent) {
    if (orelse.empty()) return;
    line(indent, "else");
    body(orelse, indent + 1);
  }

  void stmt(const ast::Stmt& s, int indent) {
    std::visit(
        Overloaded{
            [&](const ast::ExprStmt& n) {
              stmt_line(indent, "(expr " + print_expr(n.value) + ")", s);
            },
            [&](const ast::Assign& n) {
              stmt_line(indent, "(assign" + join_exprs(n.targets) + " = " + print_expr(n.value) + ")",
                        s);
            },
            [&](const ast::AugAssign& n) {
              stmt_line(indent,
                        fmt::format("(augassign {} {}= {})", print_expr(n.target),
                                    ast::binary_op_token(n.op), print_expr(n.value)),
                        s);
            },
            [&](const ast::AnnAssign& n) {
              std::string text = fmt::format("(annassign {} : {}", print_expr(n.target),
                                             print_expr(n.annotation));
              if (n.value) text += " = " + print_expr(n.value);
              stmt_line(indent, text + ")", s);
            },
            [&](const ast::If& n) {
              for (size_t k = 0; k < n.branches.size(); ++k) {
                const ast::IfBranch& branch = n.branches[k];
                line(indent, fmt::format("({} {}) @{}:{}", k == 0 ? "if" : "elif",
                                         print_expr(branch.cond), branch.range.line,
                                         branch.range.col));
                body(branch.body, indent + 1);
              }
              else_body(n.orelse, indent);
            },
            [&](const ast::For& n) {
              stmt_line(indent,
                        fmt::format("(for {} in {})", print_expr(n.target), print_expr(n.iter)),
                        s);
              body(n.body, indent + 1);
              else_body(n.orelse, indent);
            },
            [&](const ast::While& n) {
              stmt_line(indent, "(while " + print_expr(n.cond) + ")", s);
              body(n.body, indent + 1);
              else_body(n.orelse, indent);
            },
            [&](const ast::Break&) { stmt_line(indent, "(break)", s); },
            [&](const ast::Continue&) { stmt_line(indent, "(continue)", s); },
            [&](const ast::Pass&) { stmt_line(indent, "(pass)", s); },
            [&](const ast::Return& n) {
              stmt_line(indent, n.value ? "(return " + print_expr(n.value) + ")" : "(return)", s);
            },
            [&](const ast::FunctionDef& n) {
              std::string text = "(def " + n.name + " (params";
              for (const ast::Param& p : n.params) {
                text += ' ';
                text += param_text(p);
              }
              text += ")";
              if (!n.decorators.empty()) text += " (decorators" + join_exprs(n.decorators) + ")";
              stmt_line(indent, text + ")", s);
              body(n.body, indent + 1);
            },
            [&](const ast::ClassDef& n) {
              std::string text = "(class " + n.name + " (bases" + join_exprs(n.bases);
              for (const ast::Keyword& k : n.keywords) text += " (kw " + k.name + " " + print_expr(k.value) + ")";
              text += ")";
              if (!n.decorators.empty()) text += " (decorators" + join_exprs(n.decorators) + ")";
              stmt_line(indent, text + ")", s);
              body(n.body, indent + 1);
            },
            [&](const ast::Import& n) {
              std::string text = "(import";
              for (const ast::ImportAlias& a : n.names) {
                text += ' ';
                text += alias_text(a);
              }
              stmt_line(indent, text + ")", s);
            },
            [&](const ast::ImportFrom& n) {
              std::string text =
                  fmt::format("(from {}{} import", std::string(size_t(n.level), '.'), n.module);
              for (const ast::ImportAlias& a : n.names) {
                text += ' ';
                text += alias_text(a);
              }
              stmt_line(indent, text + ")", s);
            },
            [&](const ast::With& n) {
              std::string text = "(with";
              for (const ast::WithItem& item : n.items) {
                text += " (item " + print_expr(item.context);
                if (item.target) text += " as " + print_expr(item.target);
                text += ")";
              }
              stmt_line(indent, text + ")", s);
              body(n.body, indent + 1);
            },
            [&](const ast::UnsupportedStmt& n) {
              stmt_line(indent, "(unsupported " + quote(n.what) + ")", s);
            },
        },
        s.kind);
  }

  std::string out_;
};

}  // namespace

std::string print_expr(const ast::ExprPtr& expr) { return expr ? expr_text(*expr) : "_"; }

std::string print_ast(const ast::Module& module) { return Printer().run(module); }

}  // namespace tile2cu
