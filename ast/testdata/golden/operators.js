a ?? b;
(a || b) ?? c;
x **= 2 ** -y;
(-x) ** 2;
o?.p?.[q]?.(r);
(o?.p).q;
n ||= m &&= k;
typeof x === "string" && !(y instanceof Z) || "k" in obj;
i++ + ++j - -k;
