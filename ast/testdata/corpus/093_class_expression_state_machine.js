const Machine = class {
  static TRANSITIONS = {
    draft: ["review"],
    review: ["approved", "draft"],
    approved: ["published"],
    published: [],
  };
  state;
  history = [];
  constructor(initial = "draft") { this.state = initial; }
  can(to) { return Machine.TRANSITIONS[this.state]?.includes(to) ?? false; }
  go(to) {
    if (!this.can(to)) throw new Error(`illegal transition ${this.state} -> ${to}`);
    this.history.push([this.state, to]);
    this.state = to;
    return this;
  }
};

const { posts } = await tools.cms.listPosts({ status: "review" });
const results = [];
for (const post of posts) {
  const m = new Machine(post.status);
  const { issues } = await tools.lint.checkContent({ html: post.html });
  try {
    if (issues.length === 0) m.go("approved").go("published");
    else m.go("draft");
    await tools.cms.updatePost({ id: post.id, status: m.state });
    results.push({ id: post.id, state: m.state, steps: m.history.length });
  } catch (e) {
    results.push({ id: post.id, error: e.message });
  }
}
return results;
