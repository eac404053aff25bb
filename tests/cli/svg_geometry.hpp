// Where a chart's texts land, read back from its SVG: each <text>'s box, estimated from its font
// size and character count as the chart code lays labels out (a 12 px character is about 6.6 px
// wide), turned by its rotate() transform. Tests hold the boxes inside the view box and the tick
// labels of one axis apart.
#pragma once

#include <gtest/gtest.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace ridgeline::test {

struct TextBox {
  std::string text;
  std::string css_class;  ///< the element's class, else its group's ("ticks", "rows", ...)
  double angle_deg = 0;   ///< rotate() of its transform
  /// The box's corners in the view box's coordinates, and the box in the text's own turned frame
  /// (along the baseline: [left, right] x [top, bottom], at the origin's rotation).
  double corners[4][2] = {};
  double left = 0, right = 0, top = 0, bottom = 0;
};

namespace detail {

inline std::string attribute(xmlNodePtr node, const char* name) {
  xmlChar* value = xmlGetProp(node, BAD_CAST name);
  std::string text = value ? reinterpret_cast<const char*>(value) : "";
  xmlFree(value);
  return text;
}

// The attribute on the node or the nearest ancestor that has it (SVG inherits font-size).
inline std::string inherited(xmlNodePtr node, const char* name) {
  for (; node != nullptr && node->type == XML_ELEMENT_NODE; node = node->parent) {
    if (xmlHasProp(node, BAD_CAST name)) return attribute(node, name);
  }
  return "";
}

inline std::size_t characters(const std::string& utf8) {
  return static_cast<std::size_t>(std::count_if(utf8.begin(), utf8.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

inline void collect(xmlNodePtr node, std::vector<TextBox>& boxes) {
  for (xmlNodePtr child = node->children; child != nullptr; child = child->next) {
    if (child->type != XML_ELEMENT_NODE) continue;
    if (xmlStrcmp(child->name, BAD_CAST "text") != 0) {
      collect(child, boxes);
      continue;
    }
    TextBox box;
    xmlChar* content = xmlNodeGetContent(child);
    box.text = content ? reinterpret_cast<const char*>(content) : "";
    xmlFree(content);
    box.css_class = attribute(child, "class");
    if (box.css_class.empty()) box.css_class = inherited(child->parent, "class");
    const std::string size_text = inherited(child, "font-size");
    const double size_px = size_text.empty() ? 12 : std::stod(size_text);
    const bool bold = inherited(child, "font-weight") == "bold";
    const double width = static_cast<double>(characters(box.text)) * size_px * (bold ? 0.6 : 0.55);
    const double x = std::stod(attribute(child, "x")), y = std::stod(attribute(child, "y"));
    const std::string anchor = inherited(child, "text-anchor");
    const double start = anchor == "end" ? x - width : anchor == "middle" ? x - width / 2 : x;
    double cx = 0, cy = 0;
    const std::string transform = attribute(child, "transform");
    if (!transform.empty() &&
        std::sscanf(transform.c_str(), "rotate(%lf %lf %lf)", &box.angle_deg, &cx, &cy) != 3) {
      ADD_FAILURE() << "a transform the test cannot read: " << transform;
    }
    const double turn = box.angle_deg * std::acos(-1.0) / 180, c = std::cos(turn),
                 s = std::sin(turn);
    // Ascent about three quarters of the size, descent a quarter.
    const double xs[2] = {start, start + width}, ys[2] = {y - 0.75 * size_px, y + 0.25 * size_px};
    for (int i = 0; i < 4; ++i) {
      const double px = xs[i & 1] - cx, py = ys[i >> 1] - cy;
      box.corners[i][0] = cx + c * px - s * py;
      box.corners[i][1] = cy + s * px + c * py;
    }
    // The same box in a frame turned with the text: rotating the anchor point back by the angle
    // about the origin puts every text of that angle on axis-aligned boxes there.
    const double ox = cx + c * (start - cx) - s * (y - cy),
                 oy = cy + s * (start - cx) + c * (y - cy);
    const double bx = c * ox + s * oy, by = -s * ox + c * oy;
    box.left = bx;
    box.right = bx + width;
    box.top = by - 0.75 * size_px;
    box.bottom = by + 0.25 * size_px;
    boxes.push_back(box);
  }
}

}  // namespace detail

/// Every <text> of an SVG document, with its estimated box.
inline std::vector<TextBox> text_boxes(xmlDocPtr doc) {
  std::vector<TextBox> boxes;
  detail::collect(xmlDocGetRootElement(doc), boxes);
  return boxes;
}

/// The document's view box: width and height (it starts at 0 0).
inline std::pair<double, double> view_box_size(xmlDocPtr doc) {
  double x = 0, y = 0, width = 0, height = 0;
  std::sscanf(detail::attribute(xmlDocGetRootElement(doc), "viewBox").c_str(), "%lf %lf %lf %lf",
              &x, &y, &width, &height);
  return {width, height};
}

/// Whether two texts of the same angle overlap (by more than a pixel each way).
inline bool overlap(const TextBox& a, const TextBox& b) {
  return a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 &&
         b.top < a.bottom - 1;
}

/// Whether the bounds of two texts' corners overlap (by more than a pixel each way): exact for
/// texts turned by right angles.
inline bool bounds_overlap(const TextBox& a, const TextBox& b) {
  const auto bounds = [](const TextBox& box) {
    double low_x = box.corners[0][0], high_x = low_x, low_y = box.corners[0][1], high_y = low_y;
    for (const auto& corner : box.corners) {
      low_x = std::min(low_x, corner[0]);
      high_x = std::max(high_x, corner[0]);
      low_y = std::min(low_y, corner[1]);
      high_y = std::max(high_y, corner[1]);
    }
    return std::array<double, 4>{low_x, high_x, low_y, high_y};
  };
  const auto p = bounds(a), q = bounds(b);
  return p[0] < q[1] - 1 && q[0] < p[1] - 1 && p[2] < q[3] - 1 && q[2] < p[3] - 1;
}

}  // namespace ridgeline::test
