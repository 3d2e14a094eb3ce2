const delay = ms => new Promise(resolve => setTimeout(resolve, ms));
const deferred = () => {
  let resolve, reject;
  const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
};

const d = deferred();
const watcher = (async () => {
  for (let attempt = 0; attempt < 20; attempt++) {
    const { ready, url } = await tools.exports.status({ exportId: "exp_551" });
    if (ready) return d.resolve(url);
    await delay(1500);
  }
  d.reject(new Error("export not ready in time"));
})();

const url = await d.promise;
await watcher;
const { bytes } = await tools.http.download({ url, saveAs: "/tmp/export.zip" });
return { url, bytes };
