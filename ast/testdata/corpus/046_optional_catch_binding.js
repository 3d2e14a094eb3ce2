const ids = ["inv_1", "inv_2", "inv_3", "inv_404", "inv_5"];
const pdfs = [];
const missing = [];
for (const id of ids) {
  try {
    const { url } = await tools.billing.getInvoicePdf({ id });
    pdfs.push({ id, url });
  } catch {
    missing.push(id);
  }
}
let parsed;
try { parsed = JSON.parse(missing.length ? "{bad" : "{}"); } catch { parsed = null; }
return { pdfs, missing, parsed };
