const pluck = (items, key) => items.map((i) => i[key]);
const uniq = (xs) => [...new Set(xs)];
const customers = await tools.crm.listCustomers({});
return uniq(pluck(customers, "tier")).sort();
