#include "frontend/ast.hpp"

#include <algorithm>

namespace tile2cu::ast {

const char* binary_op_token(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::FloorDiv: return "//";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Pow: return "**";
    case BinaryOp::MatMul: return "@";
    case BinaryOp::BitAnd: return "&";
    case BinaryOp::BitOr: return "|";
    case BinaryOp::BitXor: return "^";
    case BinaryOp::LShift: return "<<";
    case BinaryOp::RShift: return ">>";
  }
  return "?";
}

const char* compare_op_token(CompareOp op) {
  switch (op) {
    case CompareOp::Lt: return "<";
    case CompareOp::Le: return "<=";
    case CompareOp::Gt: return ">";
    case CompareOp::Ge: return ">=";
    case CompareOp::Eq: return "==";
    case CompareOp::NotEq: return "!=";
    case CompareOp::Is: return "is";
    case CompareOp::IsNot: return "is not";
    case CompareOp::In: return "in";
    case CompareOp::NotIn: return "not in";
  }
  return "?";
}

std::string int128_to_string(__int128 value) {
  // Work in unsigned so that the most negative value negates without overflow.
  unsigned __int128 magnitude =
      value < 0 ? ~static_cast<unsigned __int128>(value) + 1 : static_cast<unsigned __int128>(value);
  std::string digits;
  do {
    digits += char('0' + int(magnitude % 10));
    magnitude /= 10;
  } while (magnitude != 0);
  if (value < 0) digits += '-';
  std::reverse(digits.begin(), digits.end());
  return digits;
}

}  // namespace tile2cu::ast
