#include "average.h"

#include <cmath>

namespace ccsim {

namespace {

nlohmann::json mean_of(const std::vector<const nlohmann::json*>& v) {
  const nlohmann::json& first = *v[0];
  if (first.is_null()) {
    // A node that is a source only under some seeds: the mean of the runs where it is.
    std::vector<const nlohmann::json*> numbers;
    for (auto* j : v)
      if (j->is_number()) numbers.push_back(j);
    return numbers.empty() ? first : mean_of(numbers);
  }
  if (first.is_boolean()) {
    bool any = false;
    for (auto* j : v) any = any || (j->is_boolean() && j->get<bool>());
    return any;
  }
  if (first.is_number()) {
    bool same = true;  // keep integers (counts, cycles) that every run agrees on exact
    for (auto* j : v) same = same && *j == first;
    if (same) return first;
    double sum = 0;
    int count = 0;
    for (auto* j : v)
      if (j->is_number()) sum += j->get<double>(), ++count;
    return sum / count;
  }
  if (first.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (auto& [key, value] : first.items()) {
      std::vector<const nlohmann::json*> parts;
      for (auto* j : v)
        if (j->contains(key)) parts.push_back(&(*j)[key]);
      out[key] = parts.size() == v.size() ? mean_of(parts) : value;
    }
    return out;
  }
  if (first.is_array()) {
    for (auto* j : v)
      if (!j->is_array() || j->size() != first.size()) return first;
    nlohmann::json out = nlohmann::json::array();
    for (size_t i = 0; i < first.size(); ++i) {
      std::vector<const nlohmann::json*> parts;
      for (auto* j : v) parts.push_back(&(*j)[i]);
      out.push_back(mean_of(parts));
    }
    return out;
  }
  return first;
}

}  // namespace

nlohmann::json average_results(const std::vector<nlohmann::json>& runs) {
  std::vector<const nlohmann::json*> ptrs;
  for (auto& r : runs) ptrs.push_back(&r);
  nlohmann::json out = mean_of(ptrs);
  out["config"] = runs[0]["config"];
  out["seeds"] = nlohmann::json::array();
  for (auto& r : runs) out["seeds"].push_back(r["seed"]);
  out.erase("seed");
  nlohmann::json sd = nlohmann::json::object();
  for (auto& [key, value] : runs[0].items()) {
    if (!value.is_number() || key == "seed") continue;
    const double mean = out[key].get<double>();
    double ss = 0;
    for (auto& r : runs) ss += std::pow(r[key].get<double>() - mean, 2);
    sd[key] = runs.size() > 1 ? std::sqrt(ss / static_cast<double>(runs.size() - 1)) : 0.0;
  }
  out["stddev"] = sd;
  return out;
}

}  // namespace ccsim
