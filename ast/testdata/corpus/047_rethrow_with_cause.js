async function loadCustomer(id) {
  try {
    return await tools.stripe.retrieveCustomer({ id });
  } catch (err) {
    if (err.code === "resource_missing") return null;
    throw new Error(`failed to load customer ${id}`, { cause: err });
  }
}

const customer = await loadCustomer("cus_Q1w2E3r4");
if (!customer) return "customer not found";

try {
  const subs = await tools.stripe.listSubscriptions({ customer: customer.id, status: "all" });
  return {
    email: customer.email,
    active: subs.data.filter(s => s.status === "active").map(s => s.items.data[0].price.nickname),
    canceled: subs.data.filter(s => s.status === "canceled").length,
  };
} catch (e) {
  console.log("subscription lookup failed", e.message, e.cause?.message);
  throw e;
}
