class A {
  async
  m() {}
  get
  x() { return 1 }
  static
  y = 2
  static = 3
  get = 4
}
