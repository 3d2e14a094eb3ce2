type WithTimestamps = { createdAt: string } & { updatedAt?: string };
type Issue = { number: number; title: string; labels: { name: string }[] } & Partial<WithTimestamps>;
const res: { items: Issue[] } = await tools.github.searchIssues({ q: "label:bug" });
const bugs = res.items.filter((i: Issue): boolean => i.labels.some((l) => l.name === "bug"));
const titles: (string | undefined)[] = bugs.map((b) => b.title);
return titles;
