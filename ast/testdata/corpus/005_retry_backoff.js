async function withRetry(fn, { attempts = 5, baseMs = 200 } = {}) {
  let lastErr;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (err) {
      lastErr = err;
      if (err?.status && err.status < 500 && err.status !== 429) throw err;
      const delay = baseMs * 2 ** i + Math.floor(Math.random() * 100);
      console.log(`attempt ${i + 1} failed (${err.message}); sleeping ${delay}ms`);
      await tools.util.sleep({ ms: delay });
    }
  }
  throw new Error(`gave up after ${attempts} attempts`, { cause: lastErr });
}

const weather = await withRetry(() => tools.weather.forecast({ city: "Berlin", days: 3 }));
return weather.days.map(d => ({ date: d.date, high: d.maxC, low: d.minC }));
