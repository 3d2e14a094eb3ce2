let total = 0
let count = 0
const prices = await tools.market.getPrices({ symbols: ["AAPL", "MSFT", "GOOG", "AMZN"] })
for (const p of prices.quotes) {
  total += p.last
  count++
}
const avg = total / count
let movers = prices.quotes.filter(q => Math.abs(q.changePct) > 2)
movers = movers.sort((a, b) => Math.abs(b.changePct) - Math.abs(a.changePct))
const msg = movers.length
  ? movers.map(m => `${m.symbol} ${m.changePct > 0 ? "+" : ""}${m.changePct.toFixed(2)}%`).join(", ")
  : "no big movers"
console.log(msg)
if (movers.length) await tools.slack.postMessage({ channel: "#markets", text: msg })
return { avg: Math.round(avg * 100) / 100, movers: movers.length }
