const processed = [], deadLetters = [];
let emptyPolls = 0;
poll: while (emptyPolls < 3) {
  const { messages } = await tools.sqs.receive({ queue: "image-jobs", max: 10, waitSeconds: 5 });
  if (!messages.length) { emptyPolls++; continue poll; }
  emptyPolls = 0;
  for (const msg of messages) {
    let job;
    try {
      job = JSON.parse(msg.body);
    } catch {
      deadLetters.push(msg.id);
      await tools.sqs.delete({ queue: "image-jobs", receiptHandle: msg.receiptHandle });
      continue;
    }
    if (job.type === "shutdown") break poll;
    try {
      await tools.images.resize({ src: job.src, widths: job.widths ?? [320, 640, 1280] });
      processed.push(job.src);
      await tools.sqs.delete({ queue: "image-jobs", receiptHandle: msg.receiptHandle });
    } catch (e) {
      if ((msg.receiveCount ?? 1) >= 5) {
        deadLetters.push(msg.id);
        await tools.sqs.send({ queue: "image-jobs-dlq", body: msg.body });
        await tools.sqs.delete({ queue: "image-jobs", receiptHandle: msg.receiptHandle });
      }
    }
  }
}
return { processed: processed.length, deadLetters };
