// Tool failures are ordinary exceptions: catch them, keep going, and say
// what went wrong. Promise.allSettled collects successes and failures
// together; try/catch handles one call.
const ids = [1, 4, 99, 6];
const settled = await Promise.allSettled(ids.map((id) => tools.demo.getCustomer({ id })));
const found = [];
const missing = [];
settled.forEach((r, i) => {
  if (r.status === "fulfilled") found.push(r.value.name);
  else missing.push({ id: ids[i], error: r.reason.message });
});

// A delivered order cannot change status: the tool refuses.
let update;
try {
  await tools.demo.updateOrderStatus({ id: 1001, status: "cancelled" });
  update = "cancelled order 1001";
} catch (e) {
  console.warn(`could not cancel order 1001: ${e.message}`);
  update = { refused: e.message };
}

// A bad argument is a failure too, with a message that says how to fix it.
const bad = await tools.demo.getInventory({ sku: 42 }).catch((e) => e.message);

return { found, missing, update, bad };
