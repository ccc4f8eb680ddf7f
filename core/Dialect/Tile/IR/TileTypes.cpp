//===- TileTypes.cpp - tile dialect types and attributes ------------------===//
#include "core/Dialect/Tile/IR/TileDialect.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace stagecraft::tile;

#define GET_TYPEDEF_CLASSES
#include "core/Dialect/Tile/IR/TileTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "core/Dialect/Tile/IR/TileAttrs.cpp.inc"

#include "core/Dialect/Tile/IR/TileEnums.cpp.inc"

// Registration lives here: the type and attribute storage classes are only
// complete in this file.
void TileDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "core/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "core/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "core/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}


//===----------------------------------------------------------------------===//
// DescType: !tile.desc<128x64xbf16>
//===----------------------------------------------------------------------===//

Type DescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return DescType::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), shape, elementType);
}

void DescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getBoxShape())
    printer << d << "x";
  printer << getElementType() << ">";
}

LogicalResult
DescType::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                 ArrayRef<int64_t> boxShape, Type elementType) {
  if (!isSupportedElementType(elementType))
    return emitError() << "tensor descriptor element type must be bf16, f16, "
                          "f32, i32 (tables of indices), f8E4M3FN, f8E5M2 (FP8 operands) or "
                          "f8E8M0FNU (block scales), got "
                       << elementType;
  if (boxShape.empty() || boxShape.size() > 5)
    return emitError() << "tensor descriptor rank must be 1 to 5 (TMA), got "
                       << boxShape.size();
  for (int64_t d : boxShape)
    if (d < 1 || d > 256)
      return emitError() << "TMA box dimensions must be 1 to 256, got " << d;
  int64_t innerBytes =
      boxShape.back() * (elementType.getIntOrFloatBitWidth() / 8);
  if (innerBytes % 16 != 0)
    return emitError() << "TMA box inner dimension must span a multiple of "
                          "16 bytes, got "
                       << innerBytes << " bytes";
  return success();
}

ArrayRef<int64_t> DescType::getTileShape() const {
  ArrayRef<int64_t> shape = getBoxShape();
  while (shape.size() > 1 && shape.front() == 1)
    shape = shape.drop_front();
  return shape;
}

int64_t DescType::getElementBytes() const {
  return getElementType().getIntOrFloatBitWidth() / 8;
}

int64_t DescType::getBoxBytes() const {
  int64_t n = getElementBytes();
  for (int64_t d : getBoxShape())
    n *= d;
  return n;
}

SmallVector<int64_t> DescType::getLoadBoxShape() const {
  SmallVector<int64_t> box(getBoxShape());
  if (getTileShape().size() < 2)
    return box;
  // Panels of the widest swizzle (128, 64 or 32 bytes) that divides the
  // tile's rows: a row of 96 bf16 (192 bytes) is three 64-byte panels, not
  // a 128-byte panel and a half-empty one. Rows up to 128 bytes are one
  // panel (swizzled when 32, 64 or 128 bytes). Rows above 128 bytes that no
  // swizzle divides (200 bf16: 400 bytes) are 16-byte panels, unswizzled
  // (rows are a multiple of 16 bytes: DescType::verify): a partial last
  // panel would be moved whole, and a store of it writes the next tile's
  // columns (the fifth held-out sweep's g15f, 128x200 bf16).
  int64_t eb = getElementBytes(), rowBytes = box.back() * eb;
  int64_t panelBytes = 128;
  if (rowBytes > 128 && rowBytes % 128 != 0)
    panelBytes = rowBytes % 64 == 0 ? 64 : rowBytes % 32 == 0 ? 32 : 16;
  box.back() = std::min<int64_t>(box.back(), panelBytes / eb);
  return box;
}

int64_t DescType::getLoadSwizzleBytes() const {
  if (getTileShape().size() < 2)
    return 0;
  int64_t inner = getLoadBoxShape().back() * getElementBytes();
  return inner == 128 || inner == 64 || inner == 32 ? inner : 0;
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

LogicalResult
ScheduleAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                     StringRef name, int64_t stage, int64_t order,
                     int64_t group, int64_t wait) {
  if (name.empty())
    return emitError() << "schedule name must not be empty";
  // A unit name goes into the schedule, the manifest and trace JSON, which
  // are UTF-8 text: a stray byte (the compile fuzzer's 0x98) made the trace
  // unreadable. Printed as JSON writes it.
  size_t bad = 0;
  if (!llvm::json::isUTF8(name, &bad))
    return emitError() << "schedule name must be UTF-8 text; byte " << bad << " of "
                       << llvm::formatv("{0}", llvm::json::Value(llvm::json::fixUTF8(name))).str()
                       << " is not";
  if (llvm::any_of(name, [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return emitError() << "schedule name "
                       << llvm::formatv("{0}", llvm::json::Value(name.str())).str()
                       << " has a control character";
  if (stage < 0 || stage > 64)
    return emitError() << "schedule stage must be 0 to 64, got " << stage;
  if (order < 0 || order > (1 << 20))
    return emitError() << "schedule order must be 0 to 1048576, got " << order;
  if (group < 0 || group > 7)
    return emitError() << "schedule group (warp group) must be 0 to 7, got "
                       << group;
  if (wait < 0 || wait > 7)
    return emitError() << "schedule wait depth must be 0 to 7, got " << wait;
  return success();
}
