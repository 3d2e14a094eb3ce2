const raw = await tools.echo({ value: "42", list: [1, 2] });
const value = raw.value;
const list = raw.list;
return [Number(value) + 1, list.length, raw.list[1]];
