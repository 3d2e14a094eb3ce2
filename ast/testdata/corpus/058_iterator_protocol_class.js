class Range {
  constructor(start, end, step = 1) {
    Object.assign(this, { start, end, step });
  }
  *[Symbol.iterator]() {
    for (let v = this.start; this.step > 0 ? v < this.end : v > this.end; v += this.step) yield v;
  }
  get length() {
    return Math.max(0, Math.ceil((this.end - this.start) / this.step));
  }
}

const days = new Range(0, 14);
const base = new Date("2024-06-01T00:00:00Z");
const dates = [...days].map(d => new Date(base.getTime() + d * 864e5).toISOString().slice(0, 10));
const usage = await Promise.all(dates.map(date => tools.billing.getDailyUsage({ date, product: "api" })));
const series = dates.map((date, i) => ({ date, calls: usage[i].calls }));
const growth = series.length > 1 ? ((series.at(-1).calls - series[0].calls) / (series[0].calls || 1)) * 100 : 0;
return { days: days.length, series, growthPct: +growth.toFixed(1) };
