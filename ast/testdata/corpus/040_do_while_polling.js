const job = await tools.ci.triggerPipeline({ project: "web", ref: "main", variables: { DEPLOY: "false" } });
let status;
let polls = 0;
do {
  await tools.util.sleep({ ms: Math.min(10_000, 1000 * 2 ** polls) });
  ({ status } = await tools.ci.getPipeline({ project: "web", id: job.id }));
  polls++;
  console.log(`poll ${polls}: ${status}`);
} while (["pending", "running", "created"].includes(status) && polls < 30);

if (status !== "success") {
  const { jobs } = await tools.ci.listJobs({ project: "web", pipelineId: job.id });
  const failed = jobs.filter(j => j.status === "failed");
  const logs = await Promise.all(failed.map(j => tools.ci.getJobLog({ project: "web", jobId: j.id })));
  return {
    status,
    failed: failed.map((j, i) => ({ name: j.name, tail: logs[i].split("\n").slice(-20).join("\n") })),
  };
}
return { status, polls, url: job.web_url };
