const { a, b, c } = await tools.vars.get({ names: ["a", "b", "c"] })
const disc = b ** 2 - 4 * a * c
disc < 0 ? [] : [(-b + Math.sqrt(disc)) / (2 * a), (-b - Math.sqrt(disc)) / (2 * a)]
