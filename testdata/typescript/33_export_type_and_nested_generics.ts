export type Page<T> = { items: T[]; next?: string | null };
export interface Repo { name: string; stars: number }
const page: Page<Repo> = { items: [{ name: "a", stars: 3 }, { name: "b", stars: 10 }], next: null };
const m = new Map<string, Array<Map<string, number>>>();
m.set("x", [new Map<string, number>([["y", 1]])]);
const sorted = page.items.slice().sort((a: Repo, b: Repo) => b.stars - a.stars);
return { top: sorted[0].name, inner: m.get("x")![0].get("y") };
