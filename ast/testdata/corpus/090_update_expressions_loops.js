const { levels } = await tools.game.getLeaderboard({ season: 12 });
let i = 0, j = levels.length - 1;
const pairs = [];
while (i < j) {
  pairs.push([levels[i++].player, levels[j--].player]);
}
let streak = 0, longest = 0;
for (let k = 1; k < levels.length; ++k) {
  if (levels[k].score < levels[k - 1].score) { streak++; longest = Math.max(longest, streak); }
  else streak = 0;
}
let n = levels.length;
while (n --> 0) {
  if (levels[n].banned) levels.splice(n, 1);
}
const neg = -levels.length, pos = +"42", notNot = !!levels.length;
return { pairs, longest, remaining: levels.length, neg, pos, notNot };
