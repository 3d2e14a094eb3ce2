const targets = [
  { region: "us-east-1", fn: "resize-images" },
  { region: "eu-west-1", fn: "resize-images" },
  { region: "ap-south-1", fn: "resize-images" },
];
const results = await Promise.allSettled(targets.map(t => tools.aws.lambdaUpdateConfig({ ...t, memoryMb: 1024, timeoutSec: 30 })));
const errors = results.flatMap((r, i) => (r.status === "rejected" ? [new Error(`${targets[i].region}: ${r.reason?.message}`, { cause: r.reason })] : []));
if (errors.length === targets.length) {
  throw new AggregateError(errors, "all regions failed");
}
if (errors.length) {
  console.log(`partial failure:\n${errors.map(e => ` - ${e.message}`).join("\n")}`);
}
return results.map((r, i) => ({ region: targets[i].region, ok: r.status === "fulfilled" }));
