const cities = ["Lisbon", "Porto", "Madrid", "Seville"];
const forecasts = await Promise.all(cities.map(async city => {
  const f = await tools.weather.forecast({ city, days: 5, units: "metric" });
  return { city, days: f.daily };
}));

const best = forecasts
  .map(({ city, days }) => ({
    city,
    score: days.reduce((s, d) => s + (d.precipMm < 1 ? 2 : 0) + (d.maxC >= 18 && d.maxC <= 28 ? 1 : 0), 0),
    avgHigh: +(days.reduce((s, d) => s + d.maxC, 0) / days.length).toFixed(1),
  }))
  .sort((a, b) => b.score - a.score);

return `Best destination this week: ${best[0].city} (score ${best[0].score}, avg high ${best[0].avgHigh}°C)\n` +
  best.slice(1).map(b => `  then ${b.city} (${b.score})`).join("\n");
