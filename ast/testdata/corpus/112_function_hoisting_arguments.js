const result = summarize(await loadAll());
return result;

async function loadAll() {
  const { stores } = await tools.retail.listStores({ country: "US" });
  return Promise.all(stores.map(s => tools.retail.getFootfall({ storeId: s.id, period: "last_30_days" }).then(f => ({ ...s, visits: f.total }))));
}

function summarize(stores) {
  const byState = group(stores, "state");
  return Object.entries(byState).map(([state, list]) => ({
    state,
    stores: list.length,
    visits: sum(...list.map(s => s.visits)),
  })).sort((a, b) => b.visits - a.visits);
}

function group(arr, key) {
  return arr.reduce((acc, x) => { (acc[x[key]] = acc[x[key]] || []).push(x); return acc; }, {});
}

function sum() {
  let t = 0;
  for (let i = 0; i < arguments.length; i++) t += arguments[i];
  return t;
}
