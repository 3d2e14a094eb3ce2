class Temperature {
  #celsius: number = 0;
  get fahrenheit(): number { return this.#celsius * 9 / 5 + 32; }
  set fahrenheit(f: number) { this.#celsius = (f - 32) * 5 / 9; }
  static from(c: number): Temperature {
    const t = new Temperature();
    t.#celsius = c;
    return t;
  }
}
const t = Temperature.from(100);
const u = new Temperature();
u.fahrenheit = 212;
return [t.fahrenheit, Math.round(u.fahrenheit)];
