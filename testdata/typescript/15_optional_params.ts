function label(name: string, suffix?: string, upper?: boolean): string {
  const s = suffix ? `${name} (${suffix})` : name;
  return upper ? s.toUpperCase() : s;
}
const tag = (x?: string) => x ?? "none";
return [label("a"), label("b", "x"), label("c", "y", true), tag(), tag("t")];
