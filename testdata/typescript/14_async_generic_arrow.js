const retry = async (fn, attempts = 3) => {
  let last;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (e) {
      last = e;
    }
  }
  throw last;
};
let calls = 0;
const value = await retry(async () => {
  calls++;
  if (calls < 3) throw new Error("flaky");
  return 42;
});
return { value, calls };
