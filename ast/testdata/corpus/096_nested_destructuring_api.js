const {
  data: {
    repository: {
      name,
      owner: { login: ownerLogin },
      defaultBranchRef: { target: { history: { totalCount: commitCount, nodes: [latest = {}] = [] } } },
      issues: { totalCount: openIssues },
      pullRequests: { nodes: prs = [] },
    },
  },
} = await tools.github.graphql({
  query: `query($owner:String!, $name:String!) {
    repository(owner:$owner, name:$name) {
      name owner { login }
      defaultBranchRef { target { ... on Commit { history(first:1) { totalCount nodes { oid messageHeadline committedDate } } } } }
      issues(states:OPEN) { totalCount }
      pullRequests(first:20, states:OPEN, orderBy:{field:UPDATED_AT, direction:DESC}) { nodes { number title author { login } } }
    }
  }`,
  variables: { owner: "acme", name: "engine" },
});
const { oid = "", messageHeadline: headline = "(none)" } = latest;
return {
  repo: `${ownerLogin}/${name}`,
  commitCount,
  openIssues,
  latest: `${oid.slice(0, 7)} ${headline}`,
  prs: prs.map(({ number, title, author: { login } = {} }) => `#${number} ${title} (@${login ?? "ghost"})`),
};
