outer: for (const item of items) {
  switch (item.kind) {
    case "skip": continue outer;
    case "stop": break outer;
    default: { let z = item; }
  }
}
try { risky(); } catch ({ message }) { log(message); } finally { done(); }
do { n--; } while (n > 0)
for await (const chunk of stream) total += chunk.length;
for (const k in obj) if (Object.hasOwn(obj, k)) keys.push(k);
