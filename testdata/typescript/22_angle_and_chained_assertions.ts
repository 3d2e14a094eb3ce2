const raw: unknown = await tools.echo({ value: "42", list: [1, 2] });
const value = <string>(raw as any).value;
const list = (raw as unknown as { list: number[] }).list;
return [Number(value) + 1, list.length, (<{ list: number[] }>raw).list[1]];
