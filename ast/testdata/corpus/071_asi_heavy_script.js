const owner = "acme"
const repo = "infra"
const since = new Date(Date.now() - 30 * 864e5).toISOString()

let page = 1
let all = []
while (true) {
  const batch = await tools.github.listIssues({ owner, repo, since, state: "closed", per_page: 100, page })
  all = all.concat(batch)
  if (batch.length < 100) break
  page++
}

const durations = all
  .filter(i => !i.pull_request)
  .map(i => (Date.parse(i.closed_at) - Date.parse(i.created_at)) / 36e5)
  .sort((a, b) => a - b)

const median = durations.length
  ? durations[Math.floor(durations.length / 2)]
  : null

const p90 = durations[Math.floor(durations.length * 0.9)] ?? null
let label = "n/a"
if (median !== null) label = median < 24 ? "fast" : median < 72 ? "ok" : "slow"

console.log("closed issues", durations.length)
return {
  count: durations.length,
  medianHours: median && +median.toFixed(1),
  p90Hours: p90 && +p90.toFixed(1),
  label
}
