/**
 * `npm run bench` (not in CI): the sandbox's create rate, then the connector's figures, in one run
 * on this machine. The connector runs from compiled JavaScript (tsc into bench/results/dist), as a
 * deployment would, so peak RSS is not inflated by the TypeScript compiler. Results are printed
 * and written to bench/results/connector.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchSandboxCreates } from './sandbox-creates';
import { benchConnectorIngest } from './connector-ingest';
import { benchShopifyIngest } from './shopify-ingest';
import { benchConnectorEndToEnd, type EndToEndFigures } from './connector-e2e';
import { DEPLOYMENT_NODE_FLAGS } from './connector-support';

const REPO = join(__dirname, '..');
const RESULTS = join(REPO, 'bench', 'results');

function compile(): string {
  const outDir = join(RESULTS, 'dist');
  process.stderr.write('bench: compiling to bench/results/dist ...\n');
  try {
    execFileSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(REPO, 'tsconfig.json'), '--outDir', outDir, '--declaration', 'false', '--sourceMap', 'false'], { cwd: REPO, stdio: 'ignore' });
  } catch {
    // Type errors elsewhere do not stop tsc from emitting; the emitted files are what we run.
  }
  return outDir;
}

async function main(): Promise<void> {
  mkdirSync(RESULTS, { recursive: true });
  process.env.BENCH_DIST ??= compile();
  const results: Record<string, unknown> & { endToEnd?: EndToEndFigures; endToEndDefaultHeap?: EndToEndFigures; timeToNumber?: EndToEndFigures } = { machine: { cpus: (await import('node:os')).cpus().length, node: process.version, at: new Date().toISOString() } };

  process.stderr.write('bench: sandbox creates ...\n');
  results.sandboxCreates = await benchSandboxCreates();
  process.stderr.write('bench: connector ingest vs naive handler ...\n');
  // Servers run with the Docker image's heap limits (NODE_OPTIONS there); the end-to-end run is
  // repeated without them so both figures are on record.
  const nodeFlags = DEPLOYMENT_NODE_FLAGS;
  results.nodeFlags = nodeFlags.join(' ');
  const [naive, connector] = await benchConnectorIngest(nodeFlags);
  // The rate ratio moves with what else the machine runs; the CPU ratio (the naive server's CPU per
  // webhook over the connector's) much less.
  results.ingest = {
    naive,
    connector,
    speedup: Number((connector.requestsPerSecond / naive.requestsPerSecond).toFixed(2)),
    cpuSpeedup: Number((naive.cpuUsPerWebhook / connector.cpuUsPerWebhook).toFixed(2)),
  };
  process.stderr.write('bench: Shopify ingest ...\n');
  results.shopifyIngest = await benchShopifyIngest(nodeFlags);
  process.stderr.write('bench: end to end, sandbox at 150 ms latency ...\n');
  const orders = Number(process.env.BENCH_ORDERS ?? 2000);
  results.endToEnd = await benchConnectorEndToEnd({ orders, latencyMs: 150, finalizeDelayMs: 1_000, concurrency: 128, nodeFlags });
  results.endToEndDefaultHeap = await benchConnectorEndToEnd({ orders, latencyMs: 150, finalizeDelayMs: 1_000, concurrency: 128 });
  process.stderr.write('bench: webhook to number with the real 10 s finalize delay ...\n');
  results.timeToNumber = await benchConnectorEndToEnd({ orders: 300, latencyMs: 150, finalizeDelayMs: 10_000, rate: 30, concurrency: 128, nodeFlags });

  process.stderr.write(`${countsTable({ 'end to end, heap limit': results.endToEnd, 'end to end, default heap': results.endToEndDefaultHeap, 'real 10 s wait': results.timeToNumber })}\n`);
  writeFileSync(join(RESULTS, 'connector.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}

/** The counts per order beside each run's throughput: a change that adds a call shows as a number. */
function countsTable(runs: Record<string, EndToEndFigures>): string {
  const lines = ['', 'per order     | orders/s | service calls | shop calls | own echoes | jobs / runs | Redis commands / round trips / bytes written | connector CPU ms'];
  for (const [name, run] of Object.entries(runs)) {
    const c = run.perOrder;
    const total = (counts: Record<string, number>): number => Math.round(Object.values(counts).reduce((a, b) => a + b, 0) * 100) / 100;
    lines.push(`${name} | ${run.ordersPerSecond} | ${total(c.serviceCalls)} | ${total(c.shopCalls)} | ${c.echoWebhooks} (${JSON.stringify(c.webhooksIgnored)}) | ${c.jobsEnqueued} / ${c.jobRuns} | ${c.redisCommands} / ${c.redisRoundTrips} / ${c.redisBytesWritten} | ${c.connectorCpuMs}`);
  }
  // Each script the connector ran by EVALSHA: calls and bytes per order (the ledger's, the story's, BullMQ's).
  for (const [name, run] of Object.entries(runs)) {
    const scripts = Object.entries(run.perOrder.redisEvalshaByScript).map(([script, { calls, bytes }]) => `${script} ${calls} (${bytes} B)`);
    lines.push(`${name}, EVALSHA per order: ${scripts.join(', ')}`);
  }
  return lines.join('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
