const { services } = await tools.statuspage.listComponents({ pageId: "abc123" });
const icon = s => ({ operational: "✅", degraded_performance: "🟡", partial_outage: "🟠", major_outage: "🔴" })[s] ?? "❔";
const html = `
<table>
  ${services.map(s => `
  <tr class="${s.status === "operational" ? "ok" : `bad ${s.status.replace(/_/g, "-")}`}">
    <td>${icon(s.status)}</td>
    <td>${s.name}${s.group ? ` <small>(${s.group})</small>` : ""}</td>
    <td>${s.updated_at ? `${new Date(s.updated_at).toUTCString()}` : "—"}</td>
  </tr>`).join("")}
</table>`;
const escaped = `backtick: \` dollar: \${notInterpolated} brace: }`;
return { html: html.trim(), escaped, raw: String.raw`C:\temp\new${1 + 1}` };
