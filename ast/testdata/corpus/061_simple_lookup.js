const user = await tools.github.getUser({ username: "octocat" });
return `${user.name} has ${user.public_repos} public repos and ${user.followers} followers`;
