const timeout = (ms, label) => new Promise((_, reject) =>
  setTimeout(() => reject(new Error(`${label} timed out after ${ms}ms`)), ms));

const providers = ["openweather", "weatherapi", "meteo"];
let result = null;
const errors = [];
for (const provider of providers) {
  try {
    result = await Promise.race([
      tools.weather.current({ provider, lat: 52.52, lon: 13.405 }),
      timeout(3000, provider),
    ]);
    result.provider = provider;
    break;
  } catch (e) {
    errors.push(e.message);
  }
}
const any = await Promise.any(providers.map(p => tools.weather.current({ provider: p, lat: 48.85, lon: 2.35 }))).catch(e => ({ error: e.errors?.length }));
return { berlin: result, paris: any, errors };
