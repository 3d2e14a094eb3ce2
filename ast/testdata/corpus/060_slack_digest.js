const channels = ["#eng", "#product", "#support"];
const since = Math.floor(Date.now() / 1000) - 24 * 3600;

const digests = await Promise.all(channels.map(async name => {
  const { channel } = await tools.slack.findChannel({ name: name.slice(1) });
  const { messages } = await tools.slack.conversationsHistory({ channel: channel.id, oldest: String(since), limit: 1000 });
  const threads = messages
    .filter(m => (m.reply_count ?? 0) > 0)
    .sort((a, b) => b.reply_count - a.reply_count)
    .slice(0, 3);
  const reactions = messages.reduce((n, m) => n + (m.reactions?.reduce((s, r) => s + r.count, 0) ?? 0), 0);
  return { name, total: messages.length, reactions, hot: threads.map(t => ({ text: t.text.slice(0, 80), replies: t.reply_count })) };
}));

const text = digests.map(d =>
  `*${d.name}* — ${d.total} messages, ${d.reactions} reactions\n` +
  d.hot.map(h => `  • ${h.text}${h.text.length === 80 ? "…" : ""} (${h.replies} replies)`).join("\n")
).join("\n\n");

await tools.slack.postMessage({ channel: "#daily-digest", text, unfurl_links: false });
return digests;
