function* range(n) { for (let i = 0; i < n; i++) yield i; }
async function* pages() { let cursor; do { const p = await tools.api.list({ cursor }); yield* p.items; cursor = p.next; } while (cursor); }
const out = [];
for await (const item of pages()) out.push(item);
