//===- TileOrderTest.cpp - set a tile order, read it back -----------------===//
//
// tile-set-tile-order (passes/TileOrder.h) on every persistent asset and on
// hand-written kernels: TileLoop (core/Schedule/TileLoopIR.h) must classify
// the result as the chosen order, at the default sizes and at sizes whose
// last group of tile rows is partial; the text form (TileOrderText.h) keeps
// the file's comments and parses to the same module.
//
//===----------------------------------------------------------------------===//
#include "core/Dialect/Tile/IR/KernelSignature.h"
#include "core/Schedule/ScheduleIR.h"
#include "core/Schedule/TileLoopIR.h"
#include "passes/TileOrder.h"
#include "passes/TileOrderText.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

using namespace mlir;
using namespace stagecraft;

namespace {

std::string readAsset(const std::string &name) {
  std::ifstream in(std::string(STAGECRAFT_ASSETS_DIR) + "/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Parsed {
  std::unique_ptr<MLIRContext> ctx;
  std::vector<std::string> errors;
  std::unique_ptr<ScopedDiagnosticHandler> handler;
  OwningOpRef<ModuleOp> module;
  func::FuncOp kernel;

  explicit Parsed(const std::string &text) {
    DialectRegistry registry;
    tile::registerStagecraftDialects(registry);
    ctx = std::make_unique<MLIRContext>(registry);
    handler = std::make_unique<ScopedDiagnosticHandler>(ctx.get(), [this](Diagnostic &d) {
      errors.push_back(formatDiagnostic(d));
      return success();
    });
    module = parseSourceString<ModuleOp>(text, ctx.get(), "k.mlir");
    if (module)
      kernel = tile::getKernels(*module).front();
  }
  TileLoop tileLoop(const std::vector<std::pair<std::string, int64_t>> &sizes = {}) {
    FailureOr<scf::ForOp> loop = findPipelinedLoop(kernel);
    EXPECT_TRUE(succeeded(loop));
    return succeeded(loop) ? analyzeTileLoop(kernel, *loop, sizes) : TileLoop();
  }
  std::string print() {
    std::string s;
    llvm::raw_string_ostream os(s);
    module->print(os);
    return s;
  }
};

TileOrderChoice choice(const std::string &spec) {
  TileOrderChoice c;
  std::string error;
  EXPECT_TRUE(TileOrderChoice::parse(spec, c, error)) << error;
  return c;
}

/// The order TileLoop should read back: grouped 1 is row-major, and a
/// group of at least all the tile rows is column-major.
void expectClassified(const TileLoop &tl, const TileOrderChoice &c, const std::string &what) {
  ASSERT_TRUE(tl.persistent) << what;
  ASSERT_EQ(tl.tileGrid.size(), 2u) << what;
  TileOrder want = c.order;
  int64_t g = c.groupSize;
  if (want == TileOrder::Grouped && g == 1)
    want = TileOrder::RowMajor;
  if (want == TileOrder::Grouped && g >= tl.tileGrid[0])
    want = TileOrder::ColumnMajor;
  EXPECT_EQ(tl.order, want) << what << ": " << tl.summary() << " " << tl.note;
  if (want == TileOrder::Grouped)
    EXPECT_EQ(tl.groupSize, g) << what << ": " << tl.summary();
}

const char *const kPersistentAssets[] = {
    "persistent_gemm.mlir", "persistent_gemm_grouped.mlir", "persistent_gemm_pingpong.mlir",
    "persistent_gemm_pingpong_64x256.mlir", "persistent_attention_fwd_d128.mlir"};
const char *const kOrders[] = {"row-major", "column-major", "grouped:1", "grouped:4",
                               "grouped:8", "grouped:64"};

TEST(TileOrder, EveryPersistentAssetTakesEveryOrderAndReadsItBack) {
  for (const char *asset : kPersistentAssets)
    for (const char *order : kOrders) {
      std::string what = std::string(asset) + " " + order;
      Parsed p(readAsset(asset));
      ASSERT_TRUE(p.module) << what;
      TileOrderChoice c = choice(order);
      ASSERT_TRUE(succeeded(setTileOrder(p.kernel, c))) << what << ": " << p.errors.front();
      ASSERT_TRUE(succeeded(p.kernel.verify())) << what;
      expectClassified(p.tileLoop(), c, what);
      // Set again on its own output: the same order, the same IR.
      std::string once = p.print();
      ASSERT_TRUE(succeeded(setTileOrder(p.kernel, c))) << what;
      EXPECT_EQ(p.print(), once) << what;
    }
}

TEST(TileOrder, APartialLastGroupKeepsEveryTileOnce) {
  // 8064 / 128 = 63 tile rows: grouped 8 ends with a group of 7, grouped 4
  // with one of 3; 7936 / 64 = 124 rows of the 64x256 kernel: 15 groups of
  // 8 and one of 4.
  struct Case {
    const char *asset, *order;
    std::vector<std::pair<std::string, int64_t>> sizes;
  } cases[] = {
      {"persistent_gemm.mlir", "grouped:8", {{"M", 8064}, {"N", 4352}}},
      {"persistent_gemm.mlir", "grouped:4", {{"M", 8064}, {"N", 4352}}},
      {"persistent_gemm_pingpong_64x256.mlir", "grouped:8", {{"M", 7936}, {"N", 2048}}},
      {"persistent_gemm_pingpong.mlir", "column-major", {{"M", 1000}, {"N", 3000}}},
      {"persistent_attention_fwd_d128.mlir", "grouped:3", {{"B", 2}, {"H", 5}, {"S", 1000}}},
  };
  for (const Case &k : cases) {
    std::string what = std::string(k.asset) + " " + k.order;
    Parsed p(readAsset(k.asset));
    TileOrderChoice c = choice(k.order);
    ASSERT_TRUE(succeeded(setTileOrder(p.kernel, c))) << what;
    TileLoop tl = p.tileLoop(k.sizes);
    expectClassified(tl, c, what);
    // The formula matched every t, so each tile appears once; the count
    // is the whole grid.
    EXPECT_EQ(tl.tiles, tl.tileGrid[0] * tl.tileGrid[1]) << what;
  }
}

TEST(TileOrder, TheRewriteRemovesTheOldArithmetic) {
  Parsed p(readAsset("persistent_gemm_grouped.mlir"));
  ASSERT_TRUE(succeeded(setTileOrder(p.kernel, choice("row-major"))));
  std::string ir = p.print();
  // What only the grouped order used is gone: the group constant, its
  // product with tiles_n and the group arithmetic.
  EXPECT_EQ(ir.find("arith.minui"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("arith.constant 8 "), std::string::npos) << ir;
  EXPECT_EQ(ir.find("arith.subi"), std::string::npos) << ir;
  // The tile counts the IR had are reused, not computed again.
  size_t ceildivs = 0;
  for (size_t at = ir.find("arith.ceildivui"); at != std::string::npos;
       at = ir.find("arith.ceildivui", at + 1))
    ++ceildivs;
  EXPECT_EQ(ceildivs, 2u) << ir;
}

// A persistent GEMM written another way: 64x128 tiles, column-major as
// written, the tile math in i32 (as Triton writes it) with index casts, the
// tile size before the coordinate, no index value holding a tile count
// (the rewrite computes ceil-divs of the sizes), names of its own.
const char *kI32Kernel = R"mlir(
// header comment, kept
module {
  func.func @pgemm_i32(
      %A: !tile.desc<64x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (M, K)>},
      %B: !tile.desc<128x64xbf16> {tile.shape = affine_map<()[M, N, K] -> (N, K)>},
      %C: !tile.desc<64x128xf32> {tile.shape = affine_map<()[M, N, K] -> (M, N)>},
      %M: index {tile.size = "M"}, %N: index {tile.size = "N"}, %K: index {tile.size = "K"})
      attributes {tile.kernel, tile.grid = affine_map<()[M, N, K] -> (100)>,
                  tile.defaults = {M = 4096 : i64, N = 2048 : i64, K = 1024 : i64}} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %pid = tile.program_id 0 : index
    %np = tile.num_programs 0 : index
    %m32 = arith.index_cast %M : index to i32
    %n32 = arith.index_cast %N : index to i32
    %rows = arith.ceildivui %m32, %c64_i32 : i32
    %cols = arith.ceildivui %n32, %c128_i32 : i32
    %count32 = arith.muli %rows, %cols : i32
    %count = arith.index_cast %count32 : i32 to index
    %zero = arith.constant dense<0.0> : tensor<64x128xf32>
    scf.for %tile = %pid to %count step %np {
      %t32 = arith.index_cast %tile : index to i32
      %row32 = arith.remui %t32, %rows : i32   // fastest
      %col32 = arith.divui %t32, %rows : i32
      %row = arith.index_cast %row32 : i32 to index
      %col = arith.index_cast %col32 : i32 to index
      %y = arith.muli %c64, %row : index
      %c128 = arith.constant 128 : index
      %x = arith.muli %col, %c128 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%a = %zero) -> (tensor<64x128xf32>) {
        %ta = tile.load %A[%y, %k] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
        %tb = tile.load %B[%x, %k] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
        %d = tile.dot %ta, %tb, %a {transpose_b} : tensor<64x64xbf16>, tensor<128x64xbf16> -> tensor<64x128xf32>
        scf.yield %d : tensor<64x128xf32>
      }
      tile.store %C[%y, %x], %acc : !tile.desc<64x128xf32>, tensor<64x128xf32>
    }
    return
  }
}
)mlir";

TEST(TileOrder, AKernelWithI32TileMathAndNoTileCountValues) {
  {
    Parsed p(kI32Kernel);
    ASSERT_TRUE(p.module);
    EXPECT_EQ(p.tileLoop().order, TileOrder::ColumnMajor);
  }
  for (const char *order : kOrders) {
    Parsed p(kI32Kernel);
    TileOrderChoice c = choice(order);
    ASSERT_TRUE(succeeded(setTileOrder(p.kernel, c))) << order << ": " << p.errors.front();
    expectClassified(p.tileLoop(), c, order);
    expectClassified(p.tileLoop({{"M", 4000}, {"N", 1000}}), c, std::string(order) + " 4000x1000");
    std::string ir = p.print();
    // No i32 tile math is left in the tile loop; the counts are new ceil-divs.
    EXPECT_EQ(ir.substr(ir.find("scf.for %arg6")).find(": i32"), std::string::npos) << ir;
    EXPECT_NE(ir.find("arith.ceildivui %arg3, %c64 : index"), std::string::npos) << ir;
  }
}

TEST(TileOrder, TextKeepsCommentsAndParsesToTheRewrittenModule) {
  std::vector<std::pair<std::string, std::string>> inputs;
  for (const char *asset : kPersistentAssets)
    inputs.push_back({asset, readAsset(asset)});
  inputs.push_back({"i32 kernel", kI32Kernel});
  for (const auto &[name, text] : inputs)
    for (const char *order : kOrders) {
      std::string what = name + " " + order;
      TileOrderChoice c = choice(order);
      TileOrderTextResult r = setTileOrderInText(text, name, c);
      ASSERT_TRUE(r.ok) << what << ": " << (r.diagnostics.empty() ? "" : r.diagnostics[0]);
      EXPECT_FALSE(r.reprinted) << what;
      // Comments and the lines around the tile math are as they were.
      size_t firstNewline = text.find('\n', 1);
      EXPECT_EQ(r.text.substr(0, firstNewline), text.substr(0, firstNewline)) << what;
      EXPECT_NE(r.text.find("scf.for %"), std::string::npos);
      Parsed fromText(r.text), fromPass(text);
      ASSERT_TRUE(fromText.module) << what << "\n" << r.text;
      ASSERT_TRUE(succeeded(setTileOrder(fromPass.kernel, c)));
      EXPECT_EQ(fromText.print(), fromPass.print()) << what << "\n" << r.text;
      expectClassified(fromText.tileLoop(), c, what);
    }
}

TEST(TileOrder, TextGroupedOnTheRowMajorAssetReadsLikeTheGroupedAsset) {
  TileOrderTextResult r =
      setTileOrderInText(readAsset("persistent_gemm.mlir"), "persistent_gemm.mlir",
                         choice("grouped:8"));
  ASSERT_TRUE(r.ok);
  EXPECT_NE(r.text.find("    %c8 = arith.constant 8 : index\n"
                        "    %in_group = arith.muli %c8, %tiles_n : index\n"
                        "    scf.for %t = %pid to %tiles step %nprog {\n"
                        "      %group = arith.divui %t, %in_group : index\n"
                        "      %first_row = arith.muli %group, %c8 : index\n"
                        "      %rows_left = arith.subi %tiles_m, %first_row : index\n"
                        "      %group_rows = arith.minui %rows_left, %c8 : index\n"
                        "      %t_in_group = arith.remui %t, %in_group : index\n"
                        "      %row_in_group = arith.remui %t_in_group, %group_rows : index\n"
                        "      %tm = arith.addi %first_row, %row_in_group : index\n"
                        "      %tn = arith.divui %t_in_group, %group_rows : index\n"
                        "      %m0 = arith.muli %tm, %c128 : index\n"),
            std::string::npos)
      << r.text;
}

TEST(TileOrder, RefusalsNameTheOpAndWhy) {
  auto refusal = [](const std::string &text, const std::string &order) {
    Parsed p(text);
    EXPECT_TRUE(p.module) << (p.errors.empty() ? "" : p.errors[0]);
    if (!p.module)
      return std::string();
    EXPECT_TRUE(failed(setTileOrder(p.kernel, choice(order))));
    std::string all;
    for (const std::string &e : p.errors)
      all += e + "\n";
    return all;
  };
  // Not persistent: no tile loop.
  std::string e = refusal(readAsset("gemm.mlir"), "grouped:8");
  EXPECT_NE(e.find("k.mlir:"), std::string::npos) << e;
  EXPECT_NE(e.find("error: @gemm is not a persistent kernel"), std::string::npos) << e;

  // t reaches something besides the coordinates.
  std::string text = readAsset("persistent_gemm.mlir");
  std::string leak = text;
  leak.replace(leak.find("      %cb = arith.truncf"), 0,
               "      %odd = arith.remui %t, %c64 : index\n"
               "      %oddn = arith.addi %odd, %n0 : index\n");
  leak.replace(leak.find("tile.store %C[%m0, %n0]"), 23, "tile.store %C[%m0, %oddn]");
  e = refusal(leak, "column-major");
  EXPECT_NE(e.find("cannot identify the tile coordinates: index 1 of this store depends on the "
                   "tile index but is not a tile coordinate times the tile size 256"),
            std::string::npos)
      << e;
  std::string through = text;
  through.replace(through.find("      %m0 = arith.muli"), 0,
                  "      %half = arith.divui %t, %c64 : index\n"
                  "      %kk = arith.addi %K, %half : index\n");
  through.replace(through.find("scf.for %k = %c0 to %K"), 22, "scf.for %k = %c0 to %kk");
  e = refusal(through, "row-major");
  EXPECT_NE(e.find("error: the tile index reaches this op other than through the tile "
                   "coordinates of the store at k.mlir:"),
            std::string::npos)
      << e;

  // An upper bound other than the tile count.
  std::string bound = text;
  bound.replace(bound.find("scf.for %t = %pid to %tiles"), 27, "scf.for %t = %pid to %tiles_m");
  e = refusal(bound, "row-major");
  EXPECT_NE(e.find("the tile loop's upper bound (64 at sizes M=8192 N=8192 K=8192) is not the "
                   "number of tiles the store at k.mlir:"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("covers (64 x 32 = 2048)"), std::string::npos) << e;

  // One tile dimension: only one order.
  std::string one = text;
  one.replace(one.find("tile.store %C[%m0, %n0]"), 23, "tile.store %C[%m0, %c0]");
  e = refusal(one, "column-major");
  EXPECT_NE(e.find("error: the tile loop walks one dimension of tiles (only index 0 of this "
                   "store depends on the tile index): there is only one order"),
            std::string::npos)
      << e;
}

// A batched GEMM: tiles over (batch, row, column), three tile dimensions.
const char *kBatchedKernel = R"mlir(
module {
  func.func @batched(
      %A: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[Z, M, N, K] -> (Z, M, K)>},
      %B: !tile.desc<1x128x64xbf16> {tile.shape = affine_map<()[Z, M, N, K] -> (Z, N, K)>},
      %C: !tile.desc<1x128x128xf32> {tile.shape = affine_map<()[Z, M, N, K] -> (Z, M, N)>},
      %Z: index {tile.size = "Z"}, %M: index {tile.size = "M"}, %N: index {tile.size = "N"},
      %K: index {tile.size = "K"})
      attributes {tile.kernel, tile.grid = affine_map<()[Z, M, N, K] -> (132)>,
                  tile.defaults = {Z = 3 : i64, M = 1024 : i64, N = 768 : i64, K = 512 : i64}} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %pid = tile.program_id 0 : index
    %np = tile.num_programs 0 : index
    %rows = arith.ceildivui %M, %c128 : index
    %cols = arith.ceildivui %N, %c128 : index
    %per = arith.muli %rows, %cols : index
    %tiles = arith.muli %Z, %per : index
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    scf.for %t = %pid to %tiles step %np {
      %z = arith.divui %t, %per : index
      %r = arith.remui %t, %per : index
      %tm = arith.divui %r, %cols : index
      %tn = arith.remui %r, %cols : index
      %m0 = arith.muli %tm, %c128 : index
      %n0 = arith.muli %tn, %c128 : index
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%a = %zero) -> (tensor<128x128xf32>) {
        %ta = tile.load %A[%z, %m0, %k] : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
        %tb = tile.load %B[%z, %n0, %k] : !tile.desc<1x128x64xbf16> -> tensor<128x64xbf16>
        %d = tile.dot %ta, %tb, %a {transpose_b} : tensor<128x64xbf16>, tensor<128x64xbf16> -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      }
      tile.store %C[%z, %m0, %n0], %acc : !tile.desc<1x128x128xf32>, tensor<128x128xf32>
    }
    return
  }
}
)mlir";

TEST(TileOrder, ThreeTileDimensionsTakeRowAndColumnMajorNotGrouped) {
  {
    Parsed p(kBatchedKernel);
    ASSERT_TRUE(p.module);
    TileLoop tl = p.tileLoop();
    EXPECT_EQ(tl.order, TileOrder::RowMajor) << tl.note;
    EXPECT_EQ(tl.tileGrid, (std::vector<int64_t>{3, 8, 6}));
  }
  for (const char *order : {"column-major", "row-major"}) {
    Parsed p(kBatchedKernel);
    TileOrderChoice c = choice(order);
    ASSERT_TRUE(succeeded(setTileOrder(p.kernel, c))) << order << ": " << p.errors.front();
    for (const auto &sizes : std::vector<std::vector<std::pair<std::string, int64_t>>>{
             {}, {{"Z", 5}, {"M", 700}, {"N", 300}}}) {
      TileLoop tl = p.tileLoop(sizes);
      EXPECT_EQ(tl.order, c.order) << order << ": " << tl.summary();
      EXPECT_EQ(tl.tileGrid.size(), 3u);
    }
    TileOrderTextResult r = setTileOrderInText(kBatchedKernel, "batched.mlir", c);
    ASSERT_TRUE(r.ok);
    EXPECT_FALSE(r.reprinted);
  }
  Parsed p(kBatchedKernel);
  EXPECT_TRUE(failed(setTileOrder(p.kernel, choice("grouped:4"))));
  ASSERT_FALSE(p.errors.empty());
  EXPECT_NE(p.errors[0].find("k.mlir:34:7: error: a grouped tile order needs two tile "
                             "dimensions; this store has 3 indices that depend on the tile index"),
            std::string::npos)
      << p.errors[0];
}

TEST(TileOrder, ChoiceSpellings) {
  TileOrderChoice c;
  std::string error;
  EXPECT_TRUE(TileOrderChoice::parse("grouped=8", c, error));
  EXPECT_EQ(c.spec(), "grouped:8");
  EXPECT_TRUE(TileOrderChoice::parse("column-major", c, error));
  EXPECT_EQ(c.order, TileOrder::ColumnMajor);
  EXPECT_FALSE(TileOrderChoice::parse("grouped:0", c, error));
  EXPECT_NE(error.find("G >= 1"), std::string::npos) << error;
  EXPECT_FALSE(TileOrderChoice::parse("grouped", c, error));
  EXPECT_NE(error.find("grouped:G"), std::string::npos) << error;
  EXPECT_FALSE(TileOrderChoice::parse("grouped:x", c, error));
  EXPECT_FALSE(TileOrderChoice::parse("row-major:2", c, error));
  EXPECT_FALSE(TileOrderChoice::parse("diagonal", c, error));
  EXPECT_NE(error.find("unknown tile order \"diagonal\" (known: row-major, column-major, grouped)"),
            std::string::npos)
      << error;
}

} // namespace
