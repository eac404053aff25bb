// Reading the pictures back in tests: XPath over documents parsed by libxml2.
#pragma once

#include <gtest/gtest.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include <string>
#include <vector>

namespace ridgeline::test {

/// Every node the XPath expression selects, as attribute `attribute` (or text when empty).
/// SVG elements are `svg:name` in an SVG document (the namespace is registered as `svg`).
inline std::vector<std::string> select(xmlDocPtr doc, const std::string& xpath,
                                       const std::string& attribute = "") {
  std::vector<std::string> values;
  xmlXPathContextPtr context = xmlXPathNewContext(doc);
  xmlXPathRegisterNs(context, BAD_CAST "svg", BAD_CAST "http://www.w3.org/2000/svg");
  xmlXPathObjectPtr result = xmlXPathEvalExpression(BAD_CAST xpath.c_str(), context);
  if (result != nullptr && result->nodesetval != nullptr) {
    for (int i = 0; i < result->nodesetval->nodeNr; ++i) {
      xmlNodePtr node = result->nodesetval->nodeTab[i];
      xmlChar* text = attribute.empty() ? xmlNodeGetContent(node)
                                        : xmlGetProp(node, BAD_CAST attribute.c_str());
      values.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
      xmlFree(text);
    }
  }
  xmlXPathFreeObject(result);
  xmlXPathFreeContext(context);
  return values;
}

/// A page that fetches nothing: no scripts, stylesheets, images or frames by reference, and no
/// address but the SVG namespace's.
inline void expect_self_contained(const std::string& html) {
  for (const char* forbidden : {"<script", "<link", "src=", "@import", "url(http"}) {
    EXPECT_EQ(html.find(forbidden), std::string::npos) << forbidden;
  }
  std::size_t at = 0;
  while ((at = html.find("http", at)) != std::string::npos) {
    EXPECT_EQ(html.compare(at, 26, "http://www.w3.org/2000/svg"), 0) << html.substr(at, 60);
    ++at;
  }
}

}  // namespace ridgeline::test
