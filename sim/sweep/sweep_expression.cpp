#include "sim/sweep/sweep_expression.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

namespace ridgeline {

namespace {

enum class Token : std::uint8_t {
  end,
  number,
  text,
  name,
  left,
  right,
  comma,
  plus,
  minus,
  star,
  slash,
  less,
  less_equal,
  greater,
  greater_equal,
  equal,
  not_equal,
  word_and,
  word_or,
  word_not
};

struct Lexeme {
  Token token = Token::end;
  std::size_t offset = 0;
  std::string text;  // name, text; the source of a number
  double number = 0;
};

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Lexeme next() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    Lexeme l;
    l.offset = pos_;
    if (pos_ >= text_.size()) return l;
    const char c = text_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && pos_ + 1 < text_.size() &&
         std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])))) {
      return number(l);
    }
    if (name_start(c)) {
      std::size_t end = pos_;
      while (end < text_.size() && name_char(text_[end])) ++end;
      l.text = std::string(text_.substr(pos_, end - pos_));
      pos_ = end;
      l.token = l.text == "and"   ? Token::word_and
                : l.text == "or"  ? Token::word_or
                : l.text == "not" ? Token::word_not
                                  : Token::name;
      return l;
    }
    if (c == '\'' || c == '"') {
      const auto close = text_.find(c, pos_ + 1);
      if (close == std::string_view::npos) throw ExpressionError(pos_, "the text is not closed");
      l.token = Token::text;
      l.text = std::string(text_.substr(pos_ + 1, close - pos_ - 1));
      pos_ = close + 1;
      return l;
    }
    const auto two = text_.substr(pos_, 2);
    const std::pair<std::string_view, Token> kTwo[] = {{"<=", Token::less_equal},
                                                       {">=", Token::greater_equal},
                                                       {"==", Token::equal},
                                                       {"!=", Token::not_equal}};
    for (const auto& [symbol, token] : kTwo) {
      if (two == symbol) {
        pos_ += 2;
        l.token = token;
        return l;
      }
    }
    const std::pair<char, Token> kOne[] = {
        {'(', Token::left},  {')', Token::right}, {',', Token::comma},
        {'+', Token::plus},  {'-', Token::minus}, {'*', Token::star},
        {'/', Token::slash}, {'<', Token::less},  {'>', Token::greater}};
    for (const auto& [symbol, token] : kOne) {
      if (c == symbol) {
        ++pos_;
        l.token = token;
        return l;
      }
    }
    throw ExpressionError(pos_, fmt::format("unexpected '{}'", c));
  }

 private:
  // digits[.digits][e[+-]digits] then an optional unit: letters, optionally '/' and letters.
  Lexeme number(Lexeme& l) {
    std::size_t end = pos_;
    auto digits = [&] {
      while (end < text_.size() && std::isdigit(static_cast<unsigned char>(text_[end]))) ++end;
    };
    digits();
    if (end < text_.size() && text_[end] == '.') {
      ++end;
      digits();
    }
    if (end + 1 < text_.size() && (text_[end] == 'e' || text_[end] == 'E')) {
      std::size_t after = end + 1;
      if (after < text_.size() && (text_[after] == '+' || text_[after] == '-')) ++after;
      if (after < text_.size() && std::isdigit(static_cast<unsigned char>(text_[after]))) {
        end = after;
        digits();
      }
    }
    const std::size_t number_end = end;
    auto letters = [&] {
      while (end < text_.size() && std::isalpha(static_cast<unsigned char>(text_[end]))) ++end;
    };
    letters();
    if (end > number_end && end + 1 < text_.size() && text_[end] == '/' &&
        std::isalpha(static_cast<unsigned char>(text_[end + 1]))) {
      ++end;
      letters();
    }
    l.token = Token::number;
    l.text = std::string(text_.substr(pos_, end - pos_));
    l.number = number_of_text(l.text);
    if (std::isnan(l.number)) {
      throw ExpressionError(pos_, fmt::format("'{}' is not a number with a known unit", l.text));
    }
    pos_ = end;
    return l;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

// Recursive descent straight to postfix code.
class ExpressionParser {
 public:
  ExpressionParser(Expression& out, ColumnTable& columns)
      : out_(out), columns_(columns), lexer_(out.text_) {
    advance();
  }

  void parse() {
    disjunction();
    if (current_.token != Token::end) fail("expected an operator or the end");
  }

 private:
  using Op = Expression::Op;

  void advance() { current_ = lexer_.next(); }
  [[noreturn]] void fail(const std::string& message) const {
    throw ExpressionError(current_.offset, message);
  }
  void emit(Op op, int stack_change, std::uint32_t index = 0, double number = 0) {
    out_.program_.push_back(Expression::Instruction{op, index, number});
    depth_ = static_cast<std::size_t>(static_cast<long>(depth_) + stack_change);
    out_.depth_ = std::max(out_.depth_, depth_);
  }

  void disjunction() {
    conjunction();
    while (current_.token == Token::word_or) {
      advance();
      conjunction();
      emit(Op::logical_or, -1);
    }
  }
  void conjunction() {
    negation();
    while (current_.token == Token::word_and) {
      advance();
      negation();
      emit(Op::logical_and, -1);
    }
  }
  // Parentheses, function arguments, `not` and unary minus nest by recursion: a limit keeps a
  // pathological expression from overflowing the stack.
  static constexpr std::size_t kMaxNesting = 64;
  class Nested {
   public:
    explicit Nested(ExpressionParser& parser) : parser_(parser) {
      if (++parser_.nesting_ > kMaxNesting) {
        parser_.fail(fmt::format("nested more than {} deep (parentheses, not, -)", kMaxNesting));
      }
    }
    ~Nested() { --parser_.nesting_; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

   private:
    ExpressionParser& parser_;
  };

  void negation() {
    if (current_.token == Token::word_not) {
      const Nested nested(*this);
      advance();
      negation();
      emit(Op::logical_not, 0);
      return;
    }
    comparison();
  }
  void comparison() {
    sum();
    const std::pair<Token, Op> kComparisons[] = {
        {Token::less, Op::less},       {Token::less_equal, Op::less_equal},
        {Token::greater, Op::greater}, {Token::greater_equal, Op::greater_equal},
        {Token::equal, Op::equal},     {Token::not_equal, Op::not_equal}};
    for (const auto& [token, op] : kComparisons) {
      if (current_.token == token) {
        advance();
        sum();
        emit(op, -1);
        return;
      }
    }
  }
  void sum() {
    product();
    while (current_.token == Token::plus || current_.token == Token::minus) {
      const Op op = current_.token == Token::plus ? Op::add : Op::subtract;
      advance();
      product();
      emit(op, -1);
    }
  }
  void product() {
    unary();
    while (current_.token == Token::star || current_.token == Token::slash) {
      const Op op = current_.token == Token::star ? Op::multiply : Op::divide;
      advance();
      unary();
      emit(op, -1);
    }
  }
  void unary() {
    if (current_.token == Token::minus) {
      const Nested nested(*this);
      advance();
      unary();
      emit(Op::negate, 0);
      return;
    }
    atom();
  }
  void atom() {
    switch (current_.token) {
      case Token::number:
        emit(Op::number, 1, 0, current_.number);
        advance();
        return;
      case Token::text:
        out_.texts_.push_back(current_.text);
        emit(Op::text, 1, static_cast<std::uint32_t>(out_.texts_.size() - 1));
        advance();
        return;
      case Token::left: {
        const Nested nested(*this);
        advance();
        disjunction();
        if (current_.token != Token::right) fail("expected ')'");
        advance();
        return;
      }
      case Token::name:
        name();
        return;
      default:
        fail(current_.token == Token::end ? "the expression ends too early"
                                          : "expected a number, a name, a text or '('");
    }
  }
  void name() {
    const Lexeme name = current_;
    advance();
    if (current_.token != Token::left) {
      const ColumnId id = columns_.intern(name.text);
      if (std::find(out_.names_.begin(), out_.names_.end(), id) == out_.names_.end())
        out_.names_.push_back(id);
      emit(Op::column, 1, id);
      return;
    }
    if (name.text != "min" && name.text != "max") {
      throw ExpressionError(
          name.offset, fmt::format("unknown function '{}' (there are min and max)", name.text));
    }
    const Nested nested(*this);
    advance();
    std::uint32_t arguments = 0;
    for (;;) {
      disjunction();
      ++arguments;
      if (current_.token == Token::comma) {
        advance();
        continue;
      }
      if (current_.token != Token::right) fail("expected ',' or ')'");
      advance();
      break;
    }
    emit(name.text == "min" ? Op::minimum : Op::maximum, 1 - static_cast<int>(arguments),
         arguments);
  }

  Expression& out_;
  ColumnTable& columns_;
  Lexer lexer_;
  Lexeme current_;
  std::size_t depth_ = 0;
  std::size_t nesting_ = 0;
};

Expression::Expression(std::string text, ColumnTable& columns) : text_(std::move(text)) {
  ExpressionParser(*this, columns).parse();
}

namespace {

struct Value {
  Expression::Kind kind = Expression::Kind::none;
  double number = 0;
  std::string_view text;
};

}  // namespace

Expression::Result Expression::evaluate(const Row& row) const {
  // The stack lives here: evaluation allocates nothing unless it has to explain a "none".
  constexpr std::size_t kInline = 32;
  Value inline_stack[kInline];
  std::vector<Value> heap_stack;
  Value* stack = inline_stack;
  if (depth_ > kInline) {
    heap_stack.resize(depth_);
    stack = heap_stack.data();
  }
  std::size_t top = 0;
  std::string why_none;
  std::optional<ColumnId> missing;
  auto none = [&](std::string reason) {
    if (why_none.empty()) why_none = std::move(reason);
    return Value{};
  };
  auto is = [](const Value& v, Kind kind) { return v.kind == kind; };

  for (const Instruction& in : program_) {
    switch (in.op) {
      case Op::number:
        stack[top++] = Value{Kind::number, in.number, {}};
        break;
      case Op::text:
        stack[top++] = Value{Kind::text, 0, texts_[in.index]};
        break;
      case Op::column: {
        const Cell* cell = row.find(in.index);
        Value v;
        if (cell == nullptr || cell->kind == Cell::Kind::empty) {
          if (!missing) missing = in.index;
          v = Value{};
        } else if (auto number = cell->number()) {
          v = Value{Kind::number, *number, {}};
        } else {
          v = Value{Kind::text, 0, cell->text};
        }
        stack[top++] = v;
        break;
      }
      case Op::negate: {
        Value& v = stack[top - 1];
        if (is(v, Kind::number)) {
          v.number = -v.number;
        } else if (!is(v, Kind::none)) {
          v = none("'-' needs a number");
        }
        break;
      }
      case Op::logical_not: {
        Value& v = stack[top - 1];
        if (is(v, Kind::boolean)) {
          v.number = v.number != 0 ? 0 : 1;
        } else if (!is(v, Kind::none)) {
          v = none("'not' needs a comparison");
        }
        break;
      }
      case Op::minimum:
      case Op::maximum: {
        const std::size_t first = top - in.index;
        Value result = stack[first];
        for (std::size_t i = first; i < top && !is(result, Kind::none); ++i) {
          if (!is(stack[i], Kind::number)) {
            result = is(stack[i], Kind::none) ? stack[i] : none("min and max need numbers");
          } else if (in.op == Op::minimum ? stack[i].number < result.number
                                          : stack[i].number > result.number) {
            result = stack[i];
          }
        }
        top = first;
        stack[top++] = result;
        break;
      }
      default: {
        const Value b = stack[--top];
        Value& a = stack[top - 1];
        if (is(a, Kind::none) || is(b, Kind::none)) {
          a = Value{};
          break;
        }
        const bool logical = in.op == Op::logical_and || in.op == Op::logical_or;
        if (logical) {
          if (!is(a, Kind::boolean) || !is(b, Kind::boolean)) {
            a = none("'and' and 'or' join comparisons");
          } else {
            const bool x = a.number != 0, y = b.number != 0;
            a.number = (in.op == Op::logical_and ? x && y : x || y) ? 1 : 0;
          }
          break;
        }
        if (in.op == Op::equal || in.op == Op::not_equal) {
          if (a.kind != b.kind) {
            a = none("'==' and '!=' compare a number with a number or a text with a text");
            break;
          }
          const bool same = is(a, Kind::text) ? a.text == b.text : a.number == b.number;
          a = Value{Kind::boolean, (same == (in.op == Op::equal)) ? 1.0 : 0.0, {}};
          break;
        }
        if (!is(a, Kind::number) || !is(b, Kind::number)) {
          a = none("arithmetic and ordering need numbers");
          break;
        }
        const double x = a.number, y = b.number;
        switch (in.op) {
          case Op::add:
            a.number = x + y;
            break;
          case Op::subtract:
            a.number = x - y;
            break;
          case Op::multiply:
            a.number = x * y;
            break;
          case Op::divide:
            if (y == 0) {
              a = none("a division by zero");
            } else {
              a.number = x / y;
            }
            break;
          default: {
            const bool holds = in.op == Op::less         ? x < y
                               : in.op == Op::less_equal ? x <= y
                               : in.op == Op::greater    ? x > y
                                                         : x >= y;
            a = Value{Kind::boolean, holds ? 1.0 : 0.0, {}};
          }
        }
      }
    }
  }
  const Value& v = stack[0];
  Result result;
  result.kind = v.kind;
  result.number = v.number;
  if (v.kind == Kind::text) result.text = std::string(v.text);
  if (v.kind == Kind::none) {
    result.missing = missing;
    result.text = why_none;
  }
  return result;
}

}  // namespace ridgeline
