const resp = await tools.crm.getAccount({ id: "acc_7781" });
const key = "billing";
const primary = resp?.account?.contacts?.[0];
const billingEmail = resp?.account?.[key]?.email ?? primary?.email;
const formatter = resp?.account?.formatters?.currency;
const formatted = formatter?.(resp?.account?.balance) ?? `$${(resp?.account?.balance ?? 0).toFixed(2)}`;
const tags = resp.account?.tags?.map?.(t => t.toUpperCase()) ?? [];
const notify = tools.notify?.email;

if (billingEmail && notify) {
  await notify?.({ to: billingEmail, subject: "Your balance", body: `Current balance: ${formatted}` });
}

return { billingEmail, formatted, tags, hasNotifier: !!notify };
