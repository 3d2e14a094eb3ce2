const memo = fn => {
  const cache = new Map();
  return async (...args) => {
    const key = JSON.stringify(args);
    if (!cache.has(key)) cache.set(key, fn(...args));
    return cache.get(key);
  };
};

const getPackage = memo(name => tools.npm.getPackage({ name }));
const { dependencies = {}, devDependencies = {} } = JSON.parse((await tools.files.read({ path: "package.json" })).content);
const names = Object.keys({ ...dependencies, ...devDependencies });

const outdated = [];
for (const name of names) {
  const pkg = await getPackage(name);
  const latest = pkg["dist-tags"]?.latest;
  const wanted = (dependencies[name] ?? devDependencies[name]).replace(/^[\^~>=<\s]+/, "");
  const [wMaj] = wanted.split(".").map(Number);
  const [lMaj] = (latest ?? "0").split(".").map(Number);
  if (latest && latest !== wanted) outdated.push({ name, wanted, latest, major: lMaj > wMaj });
}
await getPackage(names[0]);
return outdated.sort((a, b) => Number(b.major) - Number(a.major) || a.name.localeCompare(b.name));
