// The address map alone: which channel, pseudo-channel, bank group, bank, row and column a byte
// address selects under each named mapping and a custom bit order, and how a range is cut into
// row pieces.
#include "models/address_map.hpp"

#include <gtest/gtest.h>

#include <numeric>

#include "tests/hbm3_stack.hpp"

namespace ridgeline {
namespace {

using F = AddressField;

AddressGeometry hbm3(std::uint64_t interleave = 256) { return test::hbm3_geometry(interleave); }
AddressMapping named(std::string_view name) {
  return test::named_mapping(name);
}

TEST(AddressMap, ChannelInterleaveRotatesGranulesOverChannelsThenPseudoChannels) {
  // ro-ba-bg-co-pc-ch above 256 B: bits 0-7 column, 8-11 ch, 12 pc, 13-14 co, 15-17 bg, 18-19 ba.
  const AddressMap map(hbm3(), named("channel_interleave"));
  EXPECT_EQ(map.decode(0x0ff).channel, 0u);
  EXPECT_EQ(map.decode(0x100).channel, 1u);
  EXPECT_EQ(map.decode(0xf00).channel, 15u);
  EXPECT_EQ(map.decode(0x1000).pseudo_channel, 1u);
  EXPECT_EQ(map.decode(0x1000).channel, 0u);
  const DramAddress a = map.decode(0x2000);  // channel 0, pc 0, the row's second granule
  EXPECT_EQ(a.column_byte, 256u);
  EXPECT_EQ(a.bank_group, 0u);
  EXPECT_EQ(map.decode(0x8000).bank_group, 1u);  // a row (4 granules) later: the next group
  EXPECT_EQ(map.decode(0x40000).bank, 1u);
  EXPECT_EQ(map.decode(0x100000).row, 1u);
  EXPECT_EQ(map.geometry().capacity_bytes(), 16ull << 30);  // 16 GiB
}

TEST(AddressMap, BankGroupInterleaveAlternatesBankGroupsBeforeColumns) {
  const AddressMap map(hbm3(), named("bank_group_interleave"));
  // Bits: 0-7 column, 8-11 ch, 12 pc, 13-15 bg, 16-17 co, 18-19 ba, 20- ro.
  EXPECT_EQ(map.decode(0x2000).bank_group, 1u);
  EXPECT_EQ(map.decode(0x2000).column_byte, 0u);
  EXPECT_EQ(map.decode(0x10000).column_byte, 256u);
  EXPECT_EQ(map.decode(0x100000).row, 1u);
}

TEST(AddressMap, ChannelContiguousGivesEachPseudoChannelOneSlice) {
  const AddressMap map(hbm3(), named("channel_contiguous"));
  const std::uint64_t slice = (16ull << 30) / 32;  // 512 MiB a pseudo-channel
  EXPECT_EQ(map.decode(slice - 1).channel, 0u);
  EXPECT_EQ(map.decode(slice - 1).pseudo_channel, 0u);
  EXPECT_EQ(map.decode(slice).pseudo_channel, 1u);
  EXPECT_EQ(map.decode(2 * slice).channel, 1u);
  EXPECT_EQ(map.decode(1024).bank_group, 1u);  // rows of consecutive groups, then banks, then rows
}

TEST(AddressMap, EncodeInvertsDecode) {
  for (const auto& m : named_address_mappings()) {
    if (m.per_burst) continue;  // below
    const AddressMap map(hbm3(), m.mapping);
    for (std::uint64_t address :
         {0ull, 0x1234ull, 0xdeadbe0ull, (16ull << 30) - 1, 0x2aaaaaaaull}) {
      EXPECT_EQ(map.encode(map.decode(address)), address) << m.name << " " << address;
    }
  }
}

TEST(AddressMap, DecodeAgreesWithEncodeOnEveryMappingOverManyAddresses) {
  // decode reads a linear map from per-byte tables; encode walks the fields bit by bit. Each
  // must undo the other on addresses from every bit of the capacity, folds and split fields
  // included, and every field stay within its count.
  std::vector<std::pair<AddressGeometry, AddressMapping>> maps;
  for (const auto& m : named_address_mappings()) {
    const AddressGeometry g = hbm3(m.per_burst ? 32 : 256);
    if (!m.within_channel) {
      maps.emplace_back(g, m.mapping);
      continue;
    }
    for (std::uint32_t low_bits : {0, 1, 3}) {
      maps.emplace_back(g, with_channel_above(m.mapping, low_bits, g));
    }
  }
  AddressMapping split_and_folded = named("channel_interleave");
  split_and_folded.parts = {{F::row}, {F::bank}, {F::column, 1}, {F::bank_group},
                            {F::column, 1}, {F::pseudo_channel}, {F::channel}};
  split_and_folded.folds = {{F::channel, F::row, 0}, {F::bank, F::row, 3}, {F::bank_group, F::row}};
  maps.emplace_back(hbm3(), split_and_folded);
  AddressGeometry gpu = hbm3();  // five stacks' channels and a row count that is no power of two
  gpu.channels = 80;
  gpu.rows = 24576;
  maps.emplace_back(gpu, named("bank_group_interleave"));
  AddressMapping hashed = named("bank_group_interleave");
  hashed.folds = {{F::bank, F::row}, {F::bank_group, F::row}};
  maps.emplace_back(gpu, hashed);
  for (const auto& [geometry, mapping] : maps) {
    ASSERT_FALSE(check_address_map(geometry, mapping)) << mapping.text();
    const AddressMap map(geometry, mapping);
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 20000; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const std::uint64_t address = (state >> 11) % geometry.capacity_bytes();
      const DramAddress a = map.decode(address);
      ASSERT_EQ(map.encode(a), address) << mapping.text();
      ASSERT_LT(a.channel, geometry.channels);
      ASSERT_LT(a.pseudo_channel, geometry.pseudo_channels);
      ASSERT_LT(a.bank_group, geometry.bank_groups);
      ASSERT_LT(a.bank, geometry.banks_per_group);
      ASSERT_LT(a.row, geometry.rows);
      ASSERT_LT(a.column_byte, geometry.row_bytes);
    }
  }
}

TEST(AddressMap, AddressesBeyondTheCapacityWrap) {
  const AddressMap map(hbm3(), named("channel_interleave"));
  const DramAddress a = map.decode((16ull << 30) + 0x1234);
  const DramAddress b = map.decode(0x1234);
  EXPECT_EQ(a.row, b.row);
  EXPECT_EQ(a.channel, b.channel);
}

TEST(AddressMap, RowCountNotAPowerOfTwoNeedsTheRowFieldOnTop) {
  AddressGeometry g = hbm3();
  g.rows = 24576;  // a 24 GB stack
  EXPECT_FALSE(check_address_map(g, named("bank_group_interleave")));
  EXPECT_TRUE(check_address_map(g, named("channel_contiguous")));
  const AddressMap map(g, named("bank_group_interleave"));
  EXPECT_EQ(map.geometry().capacity_bytes(), 24ull << 30);
  EXPECT_EQ(map.decode((24ull << 30) - 1).row, 24575u);
}

// A GPU's five stacks have 40 channels: the channel is a digit of the granule index (address /
// 256), the index modulo 40, and the fields above it take the index divided by 40.
TEST(AddressMap, ChannelCountsThatAreNotPowersOfTwoAreDigitsOfTheGranuleIndex) {
  AddressGeometry g = hbm3();
  g.channels = 40;
  const AddressMapping order = named("bank_group_interleave");  // ro-ba-co-bg-pc-ch
  ASSERT_FALSE(check_address_map(g, order));
  const AddressMap map(g, order);
  EXPECT_EQ(map.geometry().capacity_bytes(), 40ull << 30);
  // Granule 0..39: channels 0..39; granule 40: channel 0 of pseudo-channel 1; granule 80:
  // bank group 1; granule 80 x 8 = 640: column granule 1 of bank group 0.
  for (std::uint64_t granule : {0, 1, 39, 40, 79, 80, 640, 12345678}) {
    const DramAddress a = map.decode(granule * 256 + 17);
    std::uint64_t rest = granule;
    EXPECT_EQ(a.channel, rest % 40) << granule;
    rest /= 40;
    EXPECT_EQ(a.pseudo_channel, rest % 2) << granule;
    rest /= 2;
    EXPECT_EQ(a.bank_group, rest % 8) << granule;
    rest /= 8;
    EXPECT_EQ(a.column_byte, rest % 4 * 256 + 17) << granule;
    rest /= 4;
    EXPECT_EQ(a.bank, rest % 4) << granule;
    EXPECT_EQ(a.row, rest / 4) << granule;
    EXPECT_EQ(map.encode(a), granule * 256 + 17);
  }
  // A range is cut granule by granule; a granule that continues the last piece's row merges.
  std::vector<RowPiece> pieces;
  map.split(40 * 256 - 100, 300, pieces);  // the end of granule 39, then granule 40
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].unit, 39u * 2);  // channel 39, pseudo-channel 0
  EXPECT_EQ(pieces[0].bytes, 100u);
  EXPECT_EQ(pieces[1].unit, 1u);  // channel 0, pseudo-channel 1
  EXPECT_EQ(pieces[1].bytes, 200u);
  // Such a field is given whole and never folded.
  AddressMapping in_parts = order;
  in_parts.parts = {{F::row},        {F::bank},   {F::column}, {F::bank_group}, {F::pseudo_channel},
                    {F::channel, 3}, {F::channel}};
  EXPECT_NE(check_address_map(g, in_parts).value_or("").find("'ch' has 40 values"),
            std::string::npos);
  AddressMapping folded = order;
  folded.folds = {{F::channel, F::row, 0}};
  EXPECT_NE(check_address_map(g, folded).value_or("").find("cannot be folded"), std::string::npos);
}

TEST(AddressMap, ChecksTheOrderAndCounts) {
  const auto order = named("channel_interleave");
  auto twice = order;
  twice.parts[0].field = F::channel;
  EXPECT_TRUE(check_address_map(hbm3(), twice));
  AddressGeometry g = hbm3();
  g.bank_groups = 6;
  EXPECT_TRUE(check_address_map(g, order));
  g = hbm3(2048);  // interleave above the row size
  EXPECT_TRUE(check_address_map(g, order));
  EXPECT_FALSE(check_address_map(hbm3(), order));
}

TEST(AddressMap, SplitGivesOnePiecePerRowTouched) {
  const AddressMap map(hbm3(), named("channel_interleave"));
  std::vector<RowPiece> pieces;
  // 8 KiB from 0: two granules on each of the 32 pseudo-channels, both in row 0 of bank 0.
  map.split(0, 8192, pieces);
  ASSERT_EQ(pieces.size(), 32u);
  for (std::uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(pieces[i].unit, (i % 16) * 2 + i / 16);  // channels first, then pseudo-channels
    EXPECT_EQ(pieces[i].bank, 0u);
    EXPECT_EQ(pieces[i].row, 0u);
    EXPECT_EQ(pieces[i].bytes, 256u);
  }
  // 16 KiB: each pseudo-channel's two granules 8 KiB apart share a row: still one piece each.
  pieces.clear();
  map.split(0, 16384, pieces);
  EXPECT_EQ(pieces.size(), 32u);
  EXPECT_EQ(pieces[0].bytes, 512u);

  // An unaligned range: the bytes still add up, and a row continued by the next piece merges.
  pieces.clear();
  map.split(100, 300, pieces);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].bytes, 156u);
  EXPECT_EQ(pieces[0].unit, 0u);
  EXPECT_EQ(pieces[1].bytes, 144u);
  EXPECT_EQ(pieces[1].unit, 2u);  // channel 1

  pieces.clear();
  map.split(12345, 1 << 22, pieces);
  const std::uint64_t total =
      std::accumulate(pieces.begin(), pieces.end(), std::uint64_t{0},
                      [](std::uint64_t sum, const RowPiece& p) { return sum + p.bytes; });
  EXPECT_EQ(total, 1u << 22);
  // 4 MiB is 4096 rows of 1 KiB; the unaligned start cuts the rows it meets first into pieces
  // of smaller aligned blocks (a few dozen), never one piece per granule (16384).
  EXPECT_GE(pieces.size(), 4096u);
  EXPECT_LE(pieces.size(), 4096u + 4096u / 32);
}

TEST(AddressMap, ChannelContiguousRangeStaysOnOneUnit) {
  const AddressMap map(hbm3(), named("channel_contiguous"));
  std::vector<RowPiece> pieces;
  map.split(0, 64 * 1024, pieces);
  for (const RowPiece& p : pieces) EXPECT_EQ(p.unit, 0u);
  EXPECT_EQ(pieces.size(), 64u);  // 64 rows of 1 KiB, one per bank group in turn
}


TEST(AddressMap, RamulatorsRoBaRaCoChPutsBurstsOnChannelsThenColumns) {
  // On 32 B bursts: bits 5-8 ch, 9-13 co, 14 pc, 15-17 bg, 18-19 ba, 20- ro.
  const AddressMap map(hbm3(32), named("RoBaRaCoCh"));
  EXPECT_EQ(map.decode(32).channel, 1u);
  EXPECT_EQ(map.decode(512).column_byte, 32u);
  EXPECT_EQ(map.decode(1u << 14).pseudo_channel, 1u);
  EXPECT_EQ(map.decode(1u << 15).bank_group, 1u);
  EXPECT_EQ(map.decode(1u << 20).row, 1u);
}

TEST(AddressMap, RamulatorsMop4clxorHashesWithinAChannelByTheColumn) {
  // Ramulator 2.1, the channel right above the burst: bits 5-8 ch; within the channel 9-10
  // co[0:2], 11 pc, 12-14 bg (12: the stack ID), 15-16 ba, 17-19 co[2:5], 20- ro; then pc ^=
  // co[0], bg ^= co[1:4], ba ^= co[4].
  const AddressMap map(hbm3(32), named("MOP4CLXOR"));
  EXPECT_EQ(map.decode(32).channel, 1u);      // the channel is not hashed
  const DramAddress a = map.decode(1u << 9);  // co 1: pc 0 ^ 1
  EXPECT_EQ(a.column_byte, 32u);
  EXPECT_EQ(a.pseudo_channel, 1u);
  EXPECT_EQ(a.bank_group, 0u);
  const DramAddress b = map.decode(1u << 10);  // co 2: bg ^= 1
  EXPECT_EQ(b.column_byte, 64u);
  EXPECT_EQ(b.pseudo_channel, 0u);
  EXPECT_EQ(b.bank_group, 1u);
  const DramAddress c = map.decode(1u << 19);  // co 16: ba ^= 1
  EXPECT_EQ(c.column_byte, 16u * 32);
  EXPECT_EQ(c.bank, 1u);
  for (std::uint64_t address : {0ull, 0x1234560ull, (8ull << 30) - 32, 0x2aaaaaa0ull}) {
    EXPECT_EQ(map.encode(map.decode(address)), address) << address;
  }
  // A 64 B access is two bursts on two channels: two pieces.
  std::vector<RowPiece> pieces;
  map.split(0x1000, 64, pieces);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_NE(pieces[0].unit / 2, pieces[1].unit / 2);
}

TEST(AddressMap, ChannelAbove64BytesKeepsA64ByteAccessOnOneChannel) {
  // Ramulator 2.1's channel mapper with interleave_bits 1: the channel above the lowest bit of
  // the address within it. RoBaRaCoCh: both bursts in one row of one bank (one piece);
  // MOP4CLXOR: pc ^= co[0] puts them on the channel's two pseudo-channels.
  const AddressGeometry g = hbm3(32);
  const auto named_with = [&](std::string_view name) {
    for (const auto& m : named_address_mappings()) {
      if (m.name == name) return with_channel_above(m.mapping, 1, g);
    }
    return AddressMapping{};
  };
  const AddressMapping roba = named_with("RoBaRaCoCh");
  EXPECT_EQ(roba.text(), "ro-ba-bg-pc-co:4-ch-co:1");
  ASSERT_FALSE(check_address_map(g, roba));
  std::vector<RowPiece> pieces;
  AddressMap(g, roba).split(0x12340, 64, pieces);
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].bytes, 64u);
  const AddressMapping mop = named_with("MOP4CLXOR");
  EXPECT_EQ(mop.text(), "ro-co:3-ba-bg-pc-co:1-ch-co:1 pc^co@0 bg^co@1 ba^co@4");
  ASSERT_FALSE(check_address_map(g, mop));
  pieces.clear();
  AddressMap(g, mop).split(0x12340, 64, pieces);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].unit / 2, pieces[1].unit / 2);  // one channel
  EXPECT_NE(pieces[0].unit, pieces[1].unit);          // its two pseudo-channels
}

TEST(AddressMap, RefusesMappingsThatLeaveBitsOrUseThemTwice) {
  AddressMapping m = named("bank_group_interleave");
  m.parts[2].bits = 1;  // co has 2 bits at 256 B granules
  EXPECT_NE(check_address_map(hbm3(), m)->find("co bit 1 unused"), std::string::npos);
  m.parts[2].bits = 3;
  EXPECT_NE(check_address_map(hbm3(), m)->find("bit 2 of 'co' used twice"), std::string::npos);
  AddressMapping folded = named("channel_interleave");
  folded.folds.push_back({AddressField::bank, AddressField::row, 0});
  EXPECT_FALSE(check_address_map(hbm3(), folded));
  const AddressMap map(hbm3(), folded);
  EXPECT_EQ(map.decode(0x100000).bank, 1u);  // row 1 folded into the bank
  EXPECT_EQ(map.encode(map.decode(0x100000)), 0x100000u);
}

}  // namespace
}  // namespace ridgeline
