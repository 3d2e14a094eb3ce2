const { messages } = await tools.support.listChatMessages({ conversationId: "conv_9912" });
const greekOrCyrillic = /[\p{Script=Greek}\p{Script=Cyrillic}]/v;
const lettersNotAscii = /[\p{L}--[a-zA-Z]]/v;
const flagged = messages.filter(m => greekOrCyrillic.test(m.text) || lettersNotAscii.test(m.text));
return { total: messages.length, nonLatin: flagged.length, ids: flagged.map(m => m.id) };
