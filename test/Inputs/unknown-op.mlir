module {
  %x = "tile.frobnicate"() : () -> i32
}
