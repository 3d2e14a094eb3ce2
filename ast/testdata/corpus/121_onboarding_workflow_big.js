// Onboard a batch of new hires across HR, identity, Google Workspace, Slack, GitHub and Jira.
// Each step is idempotent; failures are collected per person and reported at the end.
const START_DATE = "2024-07-01";
const DRY_RUN = false;

const TEAM_CONFIG = {
  engineering: { slack: ["#eng", "#eng-standup", "#incidents"], githubTeams: ["engineers"], jiraGroups: ["jira-software-users"], laptop: "mbp-16" },
  design: { slack: ["#design", "#design-crit"], githubTeams: [], jiraGroups: ["jira-software-users"], laptop: "mbp-14" },
  sales: { slack: ["#sales", "#deals"], githubTeams: [], jiraGroups: [], laptop: "mba-13" },
  support: { slack: ["#support", "#support-escalations"], githubTeams: [], jiraGroups: ["jira-servicedesk-users"], laptop: "mba-13" },
};
const COMMON_CHANNELS = ["#general", "#announcements", "#random"];

class StepLog {
  static #icons = { ok: "✅", skip: "⏭️", fail: "❌", dry: "🧪" };
  entries = [];
  add(person, step, status, detail = "") {
    this.entries.push({ person, step, status, detail });
    return status !== "fail";
  }
  failuresFor(person) {
    return this.entries.filter(e => e.person === person && e.status === "fail");
  }
  render() {
    const byPerson = Map.groupBy?.(this.entries, e => e.person) ??
      this.entries.reduce((m, e) => m.set(e.person, [...(m.get(e.person) ?? []), e]), new Map());
    let out = "";
    for (const [person, list] of byPerson) {
      out += `\n*${person}*\n`;
      out += list.map(({ step, status, detail }) => `  ${StepLog.#icons[status]} ${step}${detail ? ` — ${detail}` : ""}`).join("\n");
    }
    return out.trim();
  }
}

const log = new StepLog();

async function step(person, name, fn, { skipIf } = {}) {
  try {
    if (skipIf && (await skipIf())) return log.add(person, name, "skip", "already done");
    if (DRY_RUN) return log.add(person, name, "dry");
    const detail = await fn();
    return log.add(person, name, "ok", typeof detail === "string" ? detail : "");
  } catch (err) {
    const msg = err?.message ?? String(err);
    return log.add(person, name, "fail", msg.length > 120 ? `${msg.slice(0, 117)}...` : msg);
  }
}

const usernameFor = ({ firstName, lastName }) =>
  `${firstName}.${lastName}`
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/[^a-z.]/g, "");

const { hires } = await tools.hris.listNewHires({ startDate: START_DATE });
if (!hires.length) return `no hires starting ${START_DATE}`;

const [slackChannels, existingUsers] = await Promise.all([
  tools.slack.listChannels({ limit: 1000, types: "public_channel,private_channel" }).then(r => new Map(r.channels.map(c => [`#${c.name}`, c.id]))),
  tools.gworkspace.listUsers({ domain: "example.com", maxResults: 500 }).then(r => new Set(r.users.map(u => u.primaryEmail))),
]);

for (const hire of hires) {
  const person = `${hire.firstName} ${hire.lastName}`;
  const username = usernameFor(hire);
  const email = `${username}@example.com`;
  const team = TEAM_CONFIG[hire.department?.toLowerCase()] ?? TEAM_CONFIG.sales;

  const accountOk = await step(person, "google account", async () => {
    const tempPassword = Array.from({ length: 16 }, () => "abcdefghjkmnpqrstuvwxyzACDEFGHJKLMNPQRSTUVWXYZ23456789!@#"[Math.floor(Math.random() * 57)]).join("");
    await tools.gworkspace.createUser({
      primaryEmail: email,
      name: { givenName: hire.firstName, familyName: hire.lastName },
      password: tempPassword,
      changePasswordAtNextLogin: true,
      orgUnitPath: `/${hire.department ?? "General"}`,
    });
    await tools.email.send({ to: hire.personalEmail, subject: "Your new account", body: `Username: ${email}\nTemporary password: ${tempPassword}` });
    return email;
  }, { skipIf: () => existingUsers.has(email) });

  if (!accountOk) continue;

  await step(person, "okta", () => tools.okta.createUser({ profile: { login: email, email, firstName: hire.firstName, lastName: hire.lastName, department: hire.department }, activate: true }));

  await step(person, "slack invite", async () => {
    const { user } = await tools.slack.inviteUser({ email, realName: person });
    const wanted = [...COMMON_CHANNELS, ...team.slack];
    const missing = wanted.filter(c => !slackChannels.has(c));
    for (const c of wanted) {
      const id = slackChannels.get(c);
      if (id) await tools.slack.conversationsInvite({ channel: id, users: user.id });
    }
    return missing.length ? `missing channels: ${missing.join(", ")}` : `${wanted.length} channels`;
  });

  if (team.githubTeams.length && hire.githubUsername) {
    await step(person, "github", async () => {
      await tools.github.setOrgMembership({ org: "acme", username: hire.githubUsername, role: "member" });
      await Promise.all(team.githubTeams.map(t => tools.github.addTeamMember({ org: "acme", team: t, username: hire.githubUsername })));
      return team.githubTeams.join(", ");
    });
  } else if (team.githubTeams.length) {
    log.add(person, "github", "fail", "no GitHub username on file");
  }

  for (const group of team.jiraGroups) {
    await step(person, `jira ${group}`, () => tools.jira.addUserToGroup({ groupname: group, email }));
  }

  await step(person, "laptop ticket", async () => {
    const issue = await tools.jira.createIssue({
      project: "IT",
      issuetype: "Task",
      summary: `Laptop for ${person} (${team.laptop})`,
      description: `Start date: ${hire.startDate ?? START_DATE}\nShip to: ${hire.shippingAddress ?? "office"}\nManager: ${hire.managerEmail}`,
      labels: ["onboarding", `start-${START_DATE}`],
    });
    return issue.key;
  });

  await step(person, "manager calendar", () => tools.calendar.createEvent({
    calendarId: hire.managerEmail,
    summary: `1:1 with ${hire.firstName} (first day)`,
    start: { dateTime: `${hire.startDate ?? START_DATE}T10:00:00` },
    end: { dateTime: `${hire.startDate ?? START_DATE}T10:30:00` },
    attendees: [{ email }],
  }));
}

const failed = hires.filter(h => log.failuresFor(`${h.firstName} ${h.lastName}`).length > 0);
const report = log.render();
await tools.slack.postMessage({
  channel: "#people-ops",
  text: `Onboarding for ${START_DATE}: ${hires.length - failed.length}/${hires.length} fully provisioned${DRY_RUN ? " (dry run)" : ""}\n${report}`,
});

return {
  hires: hires.length,
  fullyProvisioned: hires.length - failed.length,
  needsAttention: failed.map(h => ({ name: `${h.firstName} ${h.lastName}`, failures: log.failuresFor(`${h.firstName} ${h.lastName}`).map(f => f.step) })),
};
