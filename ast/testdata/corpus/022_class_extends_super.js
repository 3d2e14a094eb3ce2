class ToolError extends Error {
  constructor(message, { tool, status, cause } = {}) {
    super(message, { cause });
    this.name = "ToolError";
    this.tool = tool;
    this.status = status;
  }

  get retryable() {
    return this.status === 429 || this.status >= 500;
  }

  toJSON() {
    return { name: this.name, message: this.message, tool: this.tool, status: this.status };
  }
}

class NotFoundError extends ToolError {
  constructor(what, opts) {
    super(`${what} not found`, { ...opts, status: 404 });
    this.name = "NotFoundError";
  }
}

async function call(tool, fn, args) {
  try {
    return await fn(args);
  } catch (e) {
    if (e?.status === 404) throw new NotFoundError(JSON.stringify(args), { tool, cause: e });
    throw new ToolError(e?.message ?? "unknown failure", { tool, status: e?.status, cause: e });
  }
}

const errors = [];
const found = [];
for (const sku of ["A-100", "B-200", "C-300"]) {
  try {
    found.push(await call("catalog.getProduct", tools.catalog.getProduct, { sku }));
  } catch (e) {
    if (e instanceof NotFoundError) {
      errors.push(e.toJSON());
      continue;
    }
    if (e instanceof ToolError && e.retryable) {
      errors.push({ ...e.toJSON(), retry: true });
      continue;
    }
    throw e;
  }
}
return { found: found.map(p => p.title), errors };
