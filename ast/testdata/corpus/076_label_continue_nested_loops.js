const { matrix } = await tools.qa.getTestMatrix({ suite: "e2e" });
const flaky = [];
browsers: for (const browser of matrix.browsers) {
  if (browser.skip) continue browsers;
  specs: for (const spec of browser.specs) {
    let failures = 0;
    for (const run of spec.runs) {
      if (run.status === "skipped") continue specs;
      if (run.status === "failed") failures++;
      if (failures > 0 && run.status === "passed") {
        flaky.push(`${browser.name}/${spec.file}`);
        continue specs;
      }
    }
  }
}
block: {
  if (!flaky.length) break block;
  await tools.github.createIssue({ owner: "acme", repo: "web", title: `Flaky e2e specs (${flaky.length})`, body: flaky.map(f => `- [ ] ${f}`).join("\n"), labels: ["flaky-test"] });
}
return flaky;
