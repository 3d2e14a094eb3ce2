async function* paginate(fetchPage) {
  let token = null;
  do {
    const { items, nextPageToken } = await fetchPage(token);
    for (const item of items) yield item;
    token = nextPageToken;
  } while (token);
}

let totalBytes = 0;
const large = [];
for await (const file of paginate(t => tools.drive.listFiles({ pageToken: t, pageSize: 500, q: "trashed = false" }))) {
  totalBytes += Number(file.size ?? 0);
  if (file.size > 100 * 1024 ** 2) large.push({ name: file.name, mb: (file.size / 1024 ** 2).toFixed(1) });
}

return { totalGb: (totalBytes / 1024 ** 3).toFixed(2), large };
