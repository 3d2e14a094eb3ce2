const toRad = d => (d * Math.PI) / 180;
function haversine([lat1, lon1], [lat2, lon2]) {
  const R = 6371;
  const dLat = toRad(lat2 - lat1), dLon = toRad(lon2 - lon1);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

const { location } = await tools.geo.geocode({ address: "1600 Amphitheatre Pkwy, Mountain View, CA" });
const origin = [location.lat, location.lng];
const { places } = await tools.places.nearby({ lat: origin[0], lng: origin[1], radiusM: 5000, type: "cafe" });
const ranked = places
  .map(p => ({ name: p.name, rating: p.rating ?? 0, km: haversine(origin, [p.geometry.lat, p.geometry.lng]) }))
  .filter(p => p.rating >= 4.2)
  .sort((a, b) => a.km - b.km)
  .slice(0, 5)
  .map(p => `${p.name} — ${p.km.toFixed(2)} km, ${p.rating}★`);
ranked
