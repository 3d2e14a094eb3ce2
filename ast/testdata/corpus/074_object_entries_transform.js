const env = await tools.vercel.getEnvVars({ projectId: "prj_abc", target: "production" });
const vars = Object.fromEntries(env.envs.map(({ key, value, type }) => [key, type === "secret" ? null : value]));
const renamed = Object.fromEntries(
  Object.entries(vars)
    .filter(([k]) => k.startsWith("NEXT_PUBLIC_"))
    .map(([k, v]) => [k.replace(/^NEXT_PUBLIC_/, "").toLowerCase().replace(/_([a-z])/g, (_, c) => c.toUpperCase()), v])
);
const missing = ["NEXT_PUBLIC_API_URL", "NEXT_PUBLIC_SENTRY_DSN", "DATABASE_URL"].filter(k => !(k in vars));
return { publicConfig: renamed, secretCount: Object.values(vars).filter(v => v === null).length, missing };
