class Job {
  id!: string;
  retries?: number;
  declare meta: Record<string, unknown>;
  static count: number = 0;
  constructor(id: string) {
    this.id = id;
    Job.count++;
  }
}
const jobs = ["a", "b"].map((id) => new Job(id));
return { jobs, keys: Object.keys(jobs[0]), count: Job.count, hasMeta: "meta" in jobs[0] };
