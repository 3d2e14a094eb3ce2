class Base { constructor(n) { this.n = n; } }
class Counter extends Base {
  #count = 0;
  static instances = 0;
  static { Counter.instances = 0; }
  constructor(n) { super(n); Counter.instances++; }
  get value() { return this.#count; }
  set value(v) { this.#count = v; }
  *[Symbol.iterator]() { yield this.#count; }
  has(o) { return #count in o; }
}
const C = class Named { who() { return Named; } };
