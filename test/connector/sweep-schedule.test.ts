import { spawnSync } from 'node:child_process';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { SWEEP_QUEUE } from '../../connector/core/jobs';
import { SWEEP_SCHEDULER_ID } from '../../connector/core/queues';
import { eventually, startHarness, type Harness } from './support/harness';
import { describeWithRedisServer, ownRedisServer, type OwnRedisServer } from './support/redis-servers';

const ADMIN = { authorization: `Basic ${Buffer.from('admin:admin-pw').toString('base64')}` };

function flush(redis: OwnRedisServer): void {
  expect(spawnSync('redis-cli', ['-p', String(redis.port), 'flushdb']).stdout.toString()).toContain('OK');
}

async function readyz(h: Harness): Promise<{ status: number; body: { sweep?: string; problems?: string[] } }> {
  const response = await fetch(`${h.connector?.origin}/readyz`);
  return { status: response.status, body: (await response.json()) as { sweep?: string; problems?: string[] } };
}

describeWithRedisServer('sweep-schedule.test.ts', 'the sweep schedule tests')('the periodic sweep after Redis lost its data', () => {
  let redis: OwnRedisServer;
  beforeAll(async () => {
    redis = await ownRedisServer();
  });
  afterAll(async () => {
    await redis.destroy();
  });

  it('a worker schedules it again by itself within sweep.watchSeconds (counted in magnifinance_sweep_schedule_restored_total)', async () => {
    const h = await startHarness({ redisUrl: `redis://127.0.0.1:${redis.port}`, sweep: { everyMinutes: 15, watchSeconds: 0.5 } });
    const connection = new IORedis(`redis://127.0.0.1:${redis.port}`, { maxRetriesPerRequest: null });
    const sweeps = new Queue(SWEEP_QUEUE, { connection, prefix: h.prefix });
    try {
      expect(await sweeps.getJobScheduler(SWEEP_SCHEDULER_ID)).toMatchObject({ every: 15 * 60_000 });
      flush(redis);
      expect(await sweeps.getJobScheduler(SWEEP_SCHEDULER_ID)).toBeUndefined();
      await eventually('the sweep scheduled again', async () => (await sweeps.getJobScheduler(SWEEP_SCHEDULER_ID))?.every === 15 * 60_000, 10_000);
      // Counted once the worker's own write has returned, a moment after this test's connection sees the schedule.
      await eventually('the restore counted', async () => (await h.connector?.metrics.registry.getSingleMetricAsString('magnifinance_sweep_schedule_restored_total'))?.includes('found="missing"} 1') === true, 10_000);
      expect((await readyz(h)).body.sweep).toBe('scheduled');
    } finally {
      await sweeps.close();
      await connection.quit();
      await h.close();
    }
  }, 30_000);

  it('with no worker running, /readyz, /metrics and the console say it is missing (the process stays ready: it takes webhooks)', async () => {
    const h = await startHarness({ redisUrl: `redis://127.0.0.1:${redis.port}`, sweep: { everyMinutes: 15 }, role: 'serve' });
    const connection = new IORedis(`redis://127.0.0.1:${redis.port}`, { maxRetriesPerRequest: null });
    const sweeps = new Queue(SWEEP_QUEUE, { connection, prefix: h.prefix });
    try {
      flush(redis);
      const missing = await readyz(h);
      expect(missing.status).toBe(200);
      expect(missing.body.sweep).toBe('missing');
      expect(missing.body.problems?.[0]).toContain('periodic sweep is not scheduled');
      expect(await (await fetch(`${h.connector?.origin}/metrics`)).text()).toContain('magnifinance_sweep_scheduled 0');
      const pt = await (await fetch(`${h.connector?.origin}/console/shop1?lang=pt`, { headers: ADMIN })).text();
      expect(pt).toContain('id="sweep-missing"');
      expect(pt).toContain('A sincronização periódica não está agendada');
      expect(await (await fetch(`${h.connector?.origin}/console?lang=en`, { headers: ADMIN })).text()).toContain('The periodic sweep is not scheduled');

      await sweeps.upsertJobScheduler(SWEEP_SCHEDULER_ID, { every: 15 * 60_000 }, { name: 'sweep', data: {} });
      expect((await readyz(h)).body).toEqual({ ok: true, redis: 'ready', sweep: 'scheduled' });
      expect(await (await fetch(`${h.connector?.origin}/console/shop1?lang=en`, { headers: ADMIN })).text()).not.toContain('sweep-missing');
    } finally {
      await sweeps.close();
      await connection.quit();
      await h.close();
    }
  }, 30_000);
});
