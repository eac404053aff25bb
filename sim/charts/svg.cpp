#include "sim/charts/svg.hpp"

#include <fmt/format.h>

#include <cmath>

namespace ridgeline {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string svg_number(double value) {
  if (!std::isfinite(value)) return "0";
  std::string text = fmt::format("{:.3f}", value);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

Svg::Svg(double width, double height) : width_(width), height_(height) {}

std::string Svg::attribute_text(const Attributes& attributes) {
  std::string text;
  for (const auto& [name, value] : attributes)
    text += fmt::format(" {}=\"{}\"", name, xml_escape(value));
  return text;
}

void Svg::element(std::string_view name, const Attributes& attributes) {
  body_ += fmt::format("<{}{}/>\n", name, attribute_text(attributes));
}

void Svg::element(std::string_view name, const Attributes& attributes, std::string_view text) {
  body_ += fmt::format("<{}{}>{}</{}>\n", name, attribute_text(attributes), xml_escape(text), name);
}

void Svg::open(std::string_view name, const Attributes& attributes) {
  body_ += fmt::format("<{}{}>\n", name, attribute_text(attributes));
}

void Svg::close(std::string_view name) { body_ += fmt::format("</{}>\n", name); }

std::string Svg::str() const {
  // Filling its box: no height either, so that the height scales with the width.
  const std::string size = fills_box_width_ ? std::string("width=\"100%\"")
                                            : fmt::format("width=\"{}\" height=\"{}\"",
                                                          svg_number(width_), svg_number(height_));
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" {} viewBox=\"0 0 {} {}\" "
      "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n{}</svg>\n",
      size, svg_number(width_), svg_number(height_), body_);
}

}  // namespace ridgeline
