const pluck = <T, K extends keyof T>(items: T[], key: K): T[K][] => items.map((i) => i[key]);
const uniq = <T,>(xs: T[]): T[] => [...new Set(xs)];
const customers = await tools.crm.listCustomers({});
return uniq(pluck(customers, "tier")).sort();
