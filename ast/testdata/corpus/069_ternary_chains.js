const { score, answers } = await tools.survey.getResults({ surveyId: "nps-q2" });
const bucket = n => n >= 9 ? "promoter" : n >= 7 ? "passive" : n >= 0 ? "detractor" : "invalid";
const counts = answers.reduce((c, a) => (c[bucket(a.value)] = (c[bucket(a.value)] ?? 0) + 1, c), {});
const total = (counts.promoter ?? 0) + (counts.passive ?? 0) + (counts.detractor ?? 0);
const nps = total ? Math.round(((counts.promoter ?? 0) - (counts.detractor ?? 0)) / total * 100) : null;
const mood = nps === null ? "no data" : nps > 50 ? "excellent" : nps > 0 ? "good" : "needs work";
return { reportedScore: score, computed: nps, mood, counts };
