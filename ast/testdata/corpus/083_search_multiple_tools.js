const needs = ["look up a customer by email", "create a support ticket", "send sms"];
const picks = needs.map(query => {
  const hits = search({ query, limit: 3 });
  return { query, tool: hits[0]?.name ?? null, alternatives: hits.slice(1).map(h => h.name) };
});
const missing = picks.filter(p => !p.tool);
if (missing.length) return { error: "missing tools", missing: missing.map(m => m.query) };

const call = (name, args) => {
  const [ns, ...rest] = name.split(".");
  return tools[ns][rest.join(".")](args);
};

const customer = await call(picks[0].tool, { email: "jane.doe@example.com" });
const ticket = await call(picks[1].tool, {
  requesterId: customer.id,
  subject: "Follow-up on delayed shipment",
  body: `Hi ${customer.firstName ?? "there"}, we're looking into your order.`,
  priority: "high",
});
if (customer.phone) await call(picks[2].tool, { to: customer.phone, body: `Ticket #${ticket.id} opened. We'll be in touch soon.` });
return { customerId: customer.id, ticketId: ticket.id, toolsUsed: picks.map(p => p.tool) };
