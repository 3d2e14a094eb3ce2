const { size, path } = await tools.files.stat({ path: "/data/backup-2024-06-30.tar.gz" });
const CHUNK = 8 * 1024 * 1024;
const parts = Math.ceil(size / CHUNK);
const { uploadId } = await tools.s3.createMultipartUpload({ bucket: "backups", key: "2024/06/30.tar.gz" });
const etags = [];
let lastPct = -1;
try {
  for (let part = 1; part <= parts; part++) {
    const offset = (part - 1) * CHUNK;
    let attempt = 0;
    while (true) {
      try {
        const { etag } = await tools.s3.uploadPart({ bucket: "backups", key: "2024/06/30.tar.gz", uploadId, partNumber: part, path, offset, length: Math.min(CHUNK, size - offset) });
        etags.push({ PartNumber: part, ETag: etag });
        break;
      } catch (e) {
        if (++attempt >= 3) throw e;
        await tools.util.sleep({ ms: 500 * attempt });
      }
    }
    const pct = Math.floor((part / parts) * 100);
    if (pct % 10 === 0 && pct !== lastPct) console.log(`uploaded ${pct}%`), lastPct = pct;
  }
  await tools.s3.completeMultipartUpload({ bucket: "backups", key: "2024/06/30.tar.gz", uploadId, parts: etags });
} catch (err) {
  await tools.s3.abortMultipartUpload({ bucket: "backups", key: "2024/06/30.tar.gz", uploadId });
  throw new Error("backup upload failed", { cause: err });
}
return { parts, bytes: size };
