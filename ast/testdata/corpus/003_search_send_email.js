const found = search({ query: "send email" });
if (!found.length) {
  throw new Error("no email tool available");
}
const { name } = found[0];
console.log("using tool", name);

const result = await tools[name.split(".")[0]][name.split(".")[1]]({
  to: "ops@example.com",
  subject: "Nightly report",
  body: "All jobs completed successfully.",
});
return result;
