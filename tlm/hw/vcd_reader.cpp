#include "hw/vcd_reader.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace ccsim::hw {

const VcdVar* VcdFile::find(const std::string& path, const std::string& base) const {
  for (const auto& v : vars) {
    if (v.path == path && v.base == base) return &v;
  }
  return nullptr;
}

namespace {

// Reads whitespace-separated tokens and tracks the line number.
class Tokens {
 public:
  explicit Tokens(std::istream& in) : in_(in) {}
  bool next(std::string& tok) {
    tok.clear();
    int c;
    while ((c = in_.get()) != EOF && std::isspace(c)) {
      if (c == '\n') ++line_;
    }
    if (c == EOF) return false;
    do {
      tok.push_back(static_cast<char>(c));
    } while ((c = in_.get()) != EOF && !std::isspace(c));
    if (c == '\n') ++line_;
    return true;
  }
  int line() const { return line_; }

 private:
  std::istream& in_;
  int line_ = 1;
};

bool fail(VcdFile& f, int line, const std::string& msg) {
  f.ok = false;
  f.error = "line " + std::to_string(line) + ": " + msg;
  return false;
}

// Skip to "$end"; collect the words in between.
bool until_end(Tokens& t, VcdFile& f, std::vector<std::string>& words) {
  std::string tok;
  words.clear();
  while (t.next(tok)) {
    if (tok == "$end") return true;
    words.push_back(tok);
  }
  return fail(f, t.line(), "missing $end");
}

}  // namespace

VcdFile parse_vcd(const std::string& file) {
  VcdFile f;
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    fail(f, 0, "cannot open " + file);
    return f;
  }
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (all.empty() || all.back() != '\n') {
    fail(f, 0, "empty or truncated file (last line incomplete)");
    return f;
  }
  std::istringstream ss(all);
  Tokens t(ss);
  std::map<std::string, int> width_of;
  std::vector<std::string> scopes;
  std::vector<std::string> words;
  std::string tok;
  bool defs_done = false;
  // ---- header
  while (!defs_done && t.next(tok)) {
    if (tok == "$date" || tok == "$version" || tok == "$comment") {
      if (!until_end(t, f, words)) return f;
    } else if (tok == "$timescale") {
      if (!until_end(t, f, words)) return f;
      for (const auto& w : words) f.timescale += w;
      if (f.timescale.empty()) {
        fail(f, t.line(), "empty $timescale");
        return f;
      }
    } else if (tok == "$scope") {
      if (!until_end(t, f, words)) return f;
      if (words.size() != 2) {
        fail(f, t.line(), "bad $scope");
        return f;
      }
      scopes.push_back(words[1]);
    } else if (tok == "$upscope") {
      if (!until_end(t, f, words)) return f;
      if (scopes.empty()) {
        fail(f, t.line(), "$upscope without $scope");
        return f;
      }
      scopes.pop_back();
    } else if (tok == "$var") {
      if (!until_end(t, f, words)) return f;
      if (words.size() < 4 || words.size() > 5) {
        fail(f, t.line(), "bad $var");
        return f;
      }
      VcdVar v;
      char* endp = nullptr;
      v.width = static_cast<int>(std::strtol(words[1].c_str(), &endp, 10));
      if (*endp != '\0' || v.width <= 0) {
        fail(f, t.line(), "bad $var width '" + words[1] + "'");
        return f;
      }
      v.id = words[2];
      v.base = words[3];
      v.name = words.size() == 5 ? words[3] + words[4] : words[3];
      if (scopes.empty()) {
        fail(f, t.line(), "$var outside any scope");
        return f;
      }
      for (size_t i = 0; i < scopes.size(); ++i) v.path += (i ? "." : "") + scopes[i];
      const auto it = width_of.find(v.id);
      if (it != width_of.end() && it->second != v.width) {
        fail(f, t.line(), "identifier " + v.id + " declared with two widths");
        return f;
      }
      width_of[v.id] = v.width;
      f.vars.push_back(v);
    } else if (tok == "$enddefinitions") {
      if (!until_end(t, f, words)) return f;
      defs_done = true;
    } else {
      fail(f, t.line(), "unexpected token in header: '" + tok + "'");
      return f;
    }
  }
  if (!defs_done) {
    fail(f, t.line(), "no $enddefinitions");
    return f;
  }
  if (!scopes.empty()) {
    fail(f, t.line(), "unbalanced $scope");
    return f;
  }
  if (f.vars.empty()) {
    fail(f, t.line(), "no variables");
    return f;
  }
  // ---- value changes
  bool have_time = false;
  auto change = [&](const std::string& id, size_t bits) -> bool {
    const auto it = width_of.find(id);
    if (it == width_of.end()) return fail(f, t.line(), "undeclared identifier '" + id + "'");
    if (bits > static_cast<size_t>(it->second)) return fail(f, t.line(), "value wider than " + id);
    if (!have_time) return fail(f, t.line(), "value change before the first timestamp");
    ++f.value_changes;
    ++f.changes_per_id[id];
    return true;
  };
  while (t.next(tok)) {
    const char c = tok[0];
    if (c == '#') {
      char* endp = nullptr;
      const uint64_t time = std::strtoull(tok.c_str() + 1, &endp, 10);
      if (tok.size() < 2 || *endp != '\0') {
        fail(f, t.line(), "bad timestamp '" + tok + "'");
        return f;
      }
      if (have_time && time <= f.last_time) {
        fail(f, t.line(), "timestamps not increasing");
        return f;
      }
      have_time = true;
      f.last_time = time;
      ++f.timestamps;
    } else if (c == '$') {
      if (tok != "$dumpvars" && tok != "$end" && tok != "$dumpall" && tok != "$dumpon" && tok != "$dumpoff") {
        if (tok == "$comment") {
          if (!until_end(t, f, words)) return f;
          continue;
        }
        fail(f, t.line(), "unexpected '" + tok + "'");
        return f;
      }
    } else if (c == '0' || c == '1' || c == 'x' || c == 'X' || c == 'z' || c == 'Z') {
      if (tok.size() < 2 || !change(tok.substr(1), 1)) {
        if (f.error.empty()) fail(f, t.line(), "bad scalar change '" + tok + "'");
        return f;
      }
    } else if (c == 'b' || c == 'B') {
      for (size_t i = 1; i < tok.size(); ++i) {
        const char d = tok[i];
        if (d != '0' && d != '1' && d != 'x' && d != 'X' && d != 'z' && d != 'Z') {
          fail(f, t.line(), "bad binary value '" + tok + "'");
          return f;
        }
      }
      std::string id;
      if (!t.next(id) || !change(id, tok.size() - 1)) {
        if (f.error.empty()) fail(f, t.line(), "vector change without identifier");
        return f;
      }
    } else if (c == 'r' || c == 'R') {
      std::string id;
      if (!t.next(id) || !change(id, 0)) {
        if (f.error.empty()) fail(f, t.line(), "real change without identifier");
        return f;
      }
    } else {
      fail(f, t.line(), "unexpected token '" + tok + "'");
      return f;
    }
  }
  if (f.timestamps == 0) {
    fail(f, t.line(), "no timestamps");
    return f;
  }
  f.ok = true;
  return f;
}

}  // namespace ccsim::hw
