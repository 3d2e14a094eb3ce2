interface Customer {
  id: number;
  name: string;
  tier: "gold" | "silver" | "bronze";
  spend: number;
  tags?: string[];
}
const customers: Customer[] = await tools.crm.listCustomers({});
const gold: Customer[] = customers.filter((c: Customer) => c.tier === "gold");
return gold.map((c): string => c.name);
