const { boards } = await tools.trello.listBoards({ member: "me" });
let found = null;

outer: for (const board of boards) {
  const { lists } = await tools.trello.getLists({ boardId: board.id });
  for (const list of lists) {
    if (list.closed) continue;
    const { cards } = await tools.trello.getCards({ listId: list.id });
    for (const card of cards) {
      if (card.labels.some(l => l.name === "blocked")) continue outer;
      if (/release\s+v?\d+\.\d+/i.test(card.name)) {
        found = { board: board.name, list: list.name, card: card.name, url: card.shortUrl };
        break outer;
      }
    }
  }
}

return found ?? "no release card found";
