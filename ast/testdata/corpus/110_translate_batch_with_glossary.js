const glossary = new Map([["Workspace", "Arbeitsbereich"], ["Dashboard", "Dashboard"], ["Billing", "Abrechnung"]]);
const { strings } = await tools.i18n.exportStrings({ project: "web", locale: "en" });
const pending = Object.entries(strings).filter(([key]) => !key.startsWith("debug."));

const placeholders = /\{\{\s*(\w+)\s*\}\}|%[sd]/g;
const protect = s => {
  const tokens = [];
  const text = s.replace(placeholders, m => `⟦${tokens.push(m) - 1}⟧`);
  return { text, tokens };
};
const restore = (s, tokens) => s.replace(/⟦(\d+)⟧/g, (_, i) => tokens[+i]);

const translated = {};
for (let i = 0; i < pending.length; i += 50) {
  const batch = pending.slice(i, i + 50).map(([key, value]) => ({ key, ...protect(value) }));
  const { translations } = await tools.translate.batch({
    texts: batch.map(b => b.text),
    source: "en",
    target: "de",
    glossary: Object.fromEntries(glossary),
  });
  batch.forEach((b, j) => { translated[b.key] = restore(translations[j], b.tokens); });
}

const broken = Object.entries(translated).filter(([k, v]) => (strings[k].match(placeholders)?.length ?? 0) !== (v.match(placeholders)?.length ?? 0)).map(([k]) => k);
await tools.i18n.importStrings({ project: "web", locale: "de", strings: translated, overwrite: false });
return { translated: Object.keys(translated).length, brokenPlaceholders: broken };
