// The waves of `make waves` are checked with our own VCD parser (hw/vcd_reader.h): every block's VCD
// parses, has its grouped signals and real activity; the parser itself rejects junk and
// truncated files (GTKWave and vcd2fst would accept them, TOOLCHAIN.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "hw/gtkw.h"
#include "hw/vcd_reader.h"
#include "waves.h"

namespace ccsim::tb {

using hw::parse_vcd;
using hw::VcdFile;
using hw::VcdVar;
using hw::wave_groups;

namespace {

std::string scratch_dir() {
  const auto d = std::filesystem::current_path() / "vcd_check";
  std::filesystem::create_directories(d);
  return d.string();
}

TEST(Waves, EveryBlockWritesAParsableVcdWithGroupedSignals) {
  const std::string dir = scratch_dir();
  for (const auto& block : wave_blocks()) {
    std::string error;
    ASSERT_TRUE(write_block_waves(dir, block, &error)) << block << ": " << error;
    const VcdFile f = parse_vcd(dir + "/" + block + ".vcd");
    ASSERT_TRUE(f.ok) << block << ": " << f.error;
    EXPECT_EQ(f.timescale.substr(f.timescale.size() - 1), "s") << f.timescale;
    EXPECT_GE(f.timestamps, 2 * 3000u) << block;  // two edges per cycle
    // Every grouped signal exists and (apart from the reset) toggles.
    const std::string scope = "TOP.ccsim_" + block;
    for (const auto& g : wave_groups(block)) {
      for (const auto& s : g.signals) {
        const VcdVar* v = f.find(scope, s);
        ASSERT_NE(v, nullptr) << block << "." << s;
        EXPECT_GE(f.changes_per_id.at(v->id), 1u) << block << "." << s;
      }
    }
    const VcdVar* clk = f.find(scope, "clk_i");
    ASSERT_NE(clk, nullptr);
    EXPECT_GE(f.changes_per_id.at(clk->id), 2 * 3000u);
    // The .gtkw names the VCD and every group.
    std::ifstream g(dir + "/" + block + ".gtkw");
    const std::string text((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("[dumpfile] \""), std::string::npos);
    for (const auto& grp : wave_groups(block)) EXPECT_NE(text.find("-" + grp.name + "\n"), std::string::npos);
  }
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

TEST(Waves, ParserRejectsJunkAndTruncatedFiles) {
  const std::string dir = scratch_dir();
  const std::string good =
      "$timescale 1ps $end\n$scope module TOP $end\n$var wire 1 ! clk $end\n"
      "$var wire 4 \" d [3:0] $end\n$upscope $end\n$enddefinitions $end\n"
      "#0\n0!\nb0000 \"\n#5\n1!\nb1010 \"\n";
  write_file(dir + "/good.vcd", good);
  const VcdFile ok = parse_vcd(dir + "/good.vcd");
  ASSERT_TRUE(ok.ok) << ok.error;
  EXPECT_EQ(ok.value_changes, 4u);
  EXPECT_EQ(ok.timestamps, 2u);

  const std::vector<std::pair<std::string, std::string>> bad = {
      {"junk", "this is not a vcd\n"},
      {"truncated", good.substr(0, good.size() - 3)},
      {"no_enddefinitions", "$timescale 1ps $end\n$scope module TOP $end\n$var wire 1 ! clk $end\n"},
      {"undeclared_id", good + "#6\n1?\n"},
      {"too_wide", good + "#6\nb10101 \"\n"},
      {"time_backwards", good + "#3\n0!\n"},
      {"unbalanced_scope", "$scope module TOP $end\n$var wire 1 ! clk $end\n$enddefinitions $end\n#0\n0!\n"},
  };
  for (const auto& [name, text] : bad) {
    write_file(dir + "/" + name + ".vcd", text);
    const VcdFile f = parse_vcd(dir + "/" + name + ".vcd");
    EXPECT_FALSE(f.ok) << name << " was accepted";
  }
}

}  // namespace
}  // namespace ccsim::tb
