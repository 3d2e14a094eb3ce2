function label(name, suffix, upper) {
  const s = suffix ? `${name} (${suffix})` : name;
  return upper ? s.toUpperCase() : s;
}
const tag = (x) => x ?? "none";
return [label("a"), label("b", "x"), label("c", "y", true), tag(), tag("t")];
