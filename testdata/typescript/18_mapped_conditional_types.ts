type Nullable<T> = { [K in keyof T]: T[K] | null };
type ElementOf<T> = T extends readonly (infer E)[] ? E : never;
type Getters<T> = { [K in keyof T as `get${Capitalize<string & K>}`]: () => T[K] };
const row: Nullable<{ a: number; b: string }> = { a: 1, b: null };
const first: ElementOf<number[]> = [7, 8][0];
return { row, first };
