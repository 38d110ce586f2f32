import type { Queue } from 'bullmq';
import type { OrderActionDeps } from '../admin/order-actions';
import type { ReloadControl } from '../config/reload';
import type { SweepJobData } from '../core/jobs';
import type { PdfLinkSigner } from '../pdf/pdf-link';

/** What the console's pages need from the running connector. */
export interface ConsoleDeps extends OrderActionDeps {
  prefix: string;
  /** The reload button (absent: the button is not shown). */
  reloads?: ReloadControl;
  /** server.publicUrl, for the sweep's webhook check. */
  publicUrl: string;
  links: PdfLinkSigner;
  /** Signs the forms' anti-forgery tokens. */
  secret: string;
  /** The periodic sweep's queue: the console says when its schedule is missing. */
  sweepQueue?: Queue<SweepJobData>;
  sweepEveryMinutes?: number;
}
