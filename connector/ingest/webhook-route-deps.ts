import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { DocumentJobData } from '../core/jobs';
import type { Ledger } from '../core/ledger';
import type { ConnectorMetrics } from '../core/metrics';
import type { RedisClient } from '../core/redis-connection';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import type { BatchingEnqueuer } from './enqueuer';

/** What the connector gives a platform's webhook route: the tenants, the enqueuer and what the gate asks. */
export interface WebhookRouteDeps {
  tenants: ReadonlyMap<string, TenantRuntime>;
  enqueuer: BatchingEnqueuer;
  /** The fail-fast connection: the go-live cut-off and the not-invoiced list. */
  redis: RedisClient;
  prefix: string;
  /** Asked only for orders the gate stops or reversals (is there an invoice of ours?). */
  ledger: Ledger;
  queue: Queue<DocumentJobData>;
  metrics: ConnectorMetrics;
  logger: Logger;
  maxBodyBytes: number;
  /** This connector's public origin (a platform's install flow sends the shop back to it). */
  publicUrl: string;
  /** The operator's key for what a shop hands over at install time (server.secretsKey); absent when not configured. */
  secretsKey?: Buffer;
  now?: () => number;
}
