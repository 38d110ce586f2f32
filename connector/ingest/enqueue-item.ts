import type { JobsOptions } from 'bullmq';
import type { DocumentJobData } from '../core/jobs';

/** One document job to add: its name, data and options (the job id is the order's and purpose's). */
export interface EnqueueItem {
  name: string;
  data: DocumentJobData;
  opts: JobsOptions & { jobId: string };
}
