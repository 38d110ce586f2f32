import { Pool } from 'undici';
import { startSandbox } from '../sandbox/server';

/**
 * How many closed-document creates per second the sandbox answers over HTTP, so we know it is
 * never the bottleneck of the other benchmarks. Each create has its own ExternalId (the duplicate
 * check runs on every one) and three lines at two rates.
 */

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const WARMUP = 300;
const MEASURED = Number(process.env.BENCH_CREATES ?? 5000);

function body(n: number): string {
  return JSON.stringify({
    IsToClose: true,
    Client: { Name: 'Cliente Bench', NIF: '999999990', CountryCode: 'PT' },
    Document: {
      Type: 'T',
      Date: '2026-03-02',
      DueDate: '2026-03-03',
      ExternalId: `bench-${n}`,
      Lines: [
        { Code: 'A', Description: 'Artigo A', UnitPrice: 19.99, Quantity: 2, Unit: 'UN', Type: 'P', TaxValue: 23, ProductDiscount: 10 },
        { Code: 'B', Description: 'Artigo B', UnitPrice: '4.35', Quantity: 1, Unit: 'UN', Type: 'P', TaxValue: 6, ProductDiscount: 0 },
        { Code: 'P', Description: 'Portes', UnitPrice: 3.5, Quantity: 1, Unit: 'UN', Type: 'S', TaxValue: 23, ProductDiscount: 0 },
      ],
    },
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function benchSandboxCreates(): Promise<Record<string, number | string>> {
  const sandbox = await startSandbox({ port: 0 });
  const pool = new Pool(sandbox.origin, { connections: CONCURRENCY, pipelining: 1 });
  const headers = { 'content-type': 'application/json', email: 'demo@example.com', token: 'sandbox-token' };
  let next = 0;
  let failures = 0;
  const latencies: number[] = [];

  async function worker(limit: number, record: boolean): Promise<void> {
    while (next < limit) {
      const n = next;
      next += 1;
      const started = process.hrtime.bigint();
      const response = await pool.request({ path: '/api/v1.1/document', method: 'POST', headers, body: body(n) });
      await response.body.text();
      if (response.statusCode !== 200) failures += 1;
      if (record) latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }

  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, () => worker(WARMUP, false)));
    const started = process.hrtime.bigint();
    await Promise.all(Array.from({ length: CONCURRENCY }, () => worker(WARMUP + MEASURED, true)));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    latencies.sort((a, b) => a - b);
    return {
      benchmark: 'sandbox closed-document creates over HTTP',
      concurrency: CONCURRENCY,
      creates: MEASURED,
      failures,
      createsPerSecond: Math.round(MEASURED / seconds),
      p50Ms: Number(percentile(latencies, 50).toFixed(2)),
      p99Ms: Number(percentile(latencies, 99).toFixed(2)),
    };
  } finally {
    await pool.close();
    await sandbox.close();
  }
}

if (require.main === module) {
  benchSandboxCreates().then(
    (result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
