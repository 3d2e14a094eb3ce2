const { body } = await tools.http.get({ url: "https://status.example.com/api/summary" });
let state = "unknown";
if (body.includes("status"))
  /operational/i.test(body) ? (state = "up") : (state = "degraded");

const versions = [];
const versionRe = /v(\d+)\.(\d+)\.(\d+)/g;
let m;
while ((m = versionRe.exec(body)) !== null) versions.push(m.slice(1).map(Number));

if (versions.length) /x/.test("x") && console.log("found versions", versions.length);

state
