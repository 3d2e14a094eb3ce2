const t = this;
function f() { const g = () => [this, arguments]; return g; }
const o = { m() { return () => this; } };
