const doc = await tools.gdocs.getDocument({ documentId: "1xYz" });
const text = doc.body.content.map(c => c.paragraph?.elements?.map(e => e.textRun?.content ?? "").join("") ?? "").join("");
const { translatedText } = await tools.translate.translate({ text, source: "en", target: "de" });
translatedText
