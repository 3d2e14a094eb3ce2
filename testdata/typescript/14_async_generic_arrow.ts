const retry = async <T>(fn: () => Promise<T>, attempts: number = 3): Promise<T> => {
  let last: unknown;
  for (let i: number = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (e) {
      last = e;
    }
  }
  throw last;
};
let calls = 0;
const value = await retry<number>(async () => {
  calls++;
  if (calls < 3) throw new Error("flaky");
  return 42;
});
return { value, calls };
