const channel = "C024BE91L"
let oldest = undefined
const messages = []

while (true) {
  const res = await tools.slack.conversationsHistory({ channel, oldest, limit: 200 })
  messages.push(...res.messages)
  if (!res.has_more) break
  oldest = res.messages.at(-1).ts
}

const authors = new Set(messages.map(m => m.user))
const mentions = messages
  .filter(m => /<@U[A-Z0-9]+>/.test(m.text))
  .length

console.log("messages", messages.length)
return { messages: messages.length, authors: authors.size, mentions }
