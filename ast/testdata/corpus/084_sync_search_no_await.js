const tools_found = search({ query: "weather" })
const names = tools_found.map(t => t.name)
console.log(names.join(", "))
names
