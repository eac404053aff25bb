// A small SVG writer: elements with attributes, text escaped, numbers written the same way on
// every run. Charts (sim/charts/roofline_chart, sim/report/html_report) draw with it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ridgeline {

/// Escapes &, <, >, " and ' for XML text and attribute values.
std::string xml_escape(std::string_view text);

/// A number for an attribute: fixed, up to 3 decimals, no trailing zeros ("12.5", "300").
std::string svg_number(double value);

class Svg {
 public:
  using Attributes = std::vector<std::pair<std::string, std::string>>;

  Svg(double width, double height);

  /// <name attributes/>; attribute values are escaped here.
  void element(std::string_view name, const Attributes& attributes);
  /// <name attributes>text</name>.
  void element(std::string_view name, const Attributes& attributes, std::string_view text);
  void open(std::string_view name, const Attributes& attributes);
  void close(std::string_view name);

  /// Drawn to the width of its box (width="100%", the height following the view box's aspect),
  /// rather than at its own width in pixels: for a picture that should span the page, such as a bar
  /// of shares.
  void fill_box_width() { fills_box_width_ = true; }

  /// The whole document (standalone, with the SVG namespace).
  std::string str() const;

 private:
  static std::string attribute_text(const Attributes& attributes);
  double width_;
  double height_;
  bool fills_box_width_ = false;
  std::string body_;
};

}  // namespace ridgeline
