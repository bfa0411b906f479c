// The dragonfly's counts, wiring and minimal routes match their formulas.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "topology/dragonfly.h"

using namespace ccsim;

namespace {

struct Shape {
  int p, a, h, g;
  Dragonfly::Arrangement arr;
};

class DragonflyShape : public ::testing::TestWithParam<Shape> {};

}  // namespace

TEST_P(DragonflyShape, CountsMatchFormulas) {
  const Shape s = GetParam();
  Dragonfly df(s.p, s.a, s.h, s.g, s.arr);
  EXPECT_EQ(df.num_routers(), s.a * s.g);
  EXPECT_EQ(df.num_nodes(), s.p * s.a * s.g);
  EXPECT_EQ(df.radix(0), s.p + s.a - 1 + s.h);
  EXPECT_EQ(df.diameter(), 3);
}

TEST_P(DragonflyShape, ChannelsArePairedAndGroupsEvenlyConnected) {
  const Shape s = GetParam();
  Dragonfly df(s.p, s.a, s.h, s.g, s.arr);
  std::map<std::pair<int, int>, int> links;  // (group, group) -> global channels
  for (int r = 0; r < df.num_routers(); ++r) {
    for (int port = 0; port < df.radix(r); ++port) {
      PortPeer pp = df.peer(r, port);
      if (pp.is_node) {
        EXPECT_EQ(df.node_router(pp.id), r);
        EXPECT_EQ(df.node_port(pp.id), port);
        continue;
      }
      // The peer's port leads back here, on the same kind of channel.
      PortPeer back = df.peer(pp.id, pp.port);
      EXPECT_EQ(back.id, r);
      EXPECT_EQ(back.port, port);
      EXPECT_EQ(df.port_kind(r, port), df.port_kind(pp.id, pp.port));
      if (df.port_kind(r, port) == PortKind::Local) {
        EXPECT_EQ(df.group_of(pp.id), df.group_of(r));
      }
      if (df.port_kind(r, port) == PortKind::Global) {
        EXPECT_NE(df.group_of(pp.id), df.group_of(r));
        ++links[{df.group_of(r), df.group_of(pp.id)}];
      }
    }
  }
  const int per_pair = s.a * s.h / (s.g - 1);
  EXPECT_EQ(links.size(), static_cast<size_t>(s.g * (s.g - 1)));
  for (auto& [pair, n] : links) EXPECT_EQ(n, per_pair) << pair.first << "->" << pair.second;
}

TEST_P(DragonflyShape, MinimalRoutesHaveMinimalLength) {
  const Shape s = GetParam();
  Dragonfly df(s.p, s.a, s.h, s.g, s.arr);
  int max_len = 0;
  for (int from = 0; from < df.num_routers(); ++from) {
    for (int to = 0; to < df.num_routers(); ++to) {
      int r = from, len = 0, globals = 0;
      while (r != to) {
        const int port = df.min_port_to_router(r, to, 0);
        globals += df.port_kind(r, port) == PortKind::Global;
        r = df.peer(r, port).id;
        ASSERT_LE(++len, 3);
      }
      EXPECT_EQ(len, df.min_hops(from, to));
      EXPECT_EQ(globals, df.group_of(from) != df.group_of(to) ? 1 : 0);
      max_len = std::max(max_len, len);
    }
  }
  EXPECT_EQ(max_len, df.diameter());
}

INSTANTIATE_TEST_SUITE_P(Shapes, DragonflyShape,
                         ::testing::Values(Shape{2, 4, 2, 9, Dragonfly::Arrangement::Palmtree},
                                           Shape{2, 4, 2, 9, Dragonfly::Arrangement::Consecutive},
                                           Shape{1, 4, 2, 5, Dragonfly::Arrangement::Palmtree},
                                           Shape{4, 8, 4, 33, Dragonfly::Arrangement::Palmtree},
                                           Shape{3, 6, 3, 10, Dragonfly::Arrangement::Consecutive}),
                         [](const ::testing::TestParamInfo<Shape>& i) {
                           const Shape& s = i.param;
                           return "p" + std::to_string(s.p) + "a" + std::to_string(s.a) + "h" + std::to_string(s.h) +
                                  "g" + std::to_string(s.g) +
                                  (s.arr == Dragonfly::Arrangement::Palmtree ? "_palmtree" : "_consecutive");
                         });

TEST(Dragonfly, ConsecutiveArrangementFollowsItsDefinition) {
  // Router r of group G, global port i is group-output j = r*h+i, leading to
  // group j if j < G, else j + 1.
  Dragonfly df(2, 4, 2, 9, Dragonfly::Arrangement::Consecutive);
  for (int G = 0; G < 9; ++G)
    for (int r = 0; r < 4; ++r)
      for (int i = 0; i < 2; ++i) {
        const int j = r * 2 + i;
        PortPeer pp = df.peer(G * 4 + r, df.first_global_port() + i);
        EXPECT_EQ(df.group_of(pp.id), j < G ? j : j + 1);
      }
}
