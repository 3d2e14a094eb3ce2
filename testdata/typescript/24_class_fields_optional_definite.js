class Job {
  id;
  retries;
  static count = 0;
  constructor(id) {
    this.id = id;
    Job.count++;
  }
}
const jobs = ["a", "b"].map((id) => new Job(id));
return { jobs, keys: Object.keys(jobs[0]), count: Job.count, hasMeta: "meta" in jobs[0] };
