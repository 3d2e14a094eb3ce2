const FLAG = "new-checkout";
const steps = [1, 5, 25, 50, 100];
const flag = await tools.flags.get({ key: FLAG });
const currentIdx = steps.findIndex(s => s >= (flag.rolloutPct ?? 0));
const next = steps[currentIdx + 1];
if (next === undefined) return `${FLAG} already at 100%`;

const [{ value: errBase }, { value: errNew }] = await Promise.all([
  tools.metrics.scalar({ expr: `checkout_errors_ratio{variant="control"}`, range: "1h" }),
  tools.metrics.scalar({ expr: `checkout_errors_ratio{variant="${FLAG}"}`, range: "1h" }),
]);
const regression = errNew > errBase * 1.2 && errNew - errBase > 0.002;

if (regression) {
  await tools.flags.update({ key: FLAG, rolloutPct: 0, note: `auto-rollback: ${errNew.toFixed(4)} vs ${errBase.toFixed(4)}` });
  throw new Error(`rollout halted for ${FLAG}`, { cause: { errBase, errNew } });
}
await tools.flags.update({ key: FLAG, rolloutPct: next, note: `auto-advance from ${flag.rolloutPct}%` });
return { flag: FLAG, from: flag.rolloutPct, to: next, errBase, errNew };
