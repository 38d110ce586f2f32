import { MagniFinanceClient } from '../client/rest-client';
import type { CreateDocumentRequest } from '../client/schemas/document';
import { cpuMs, ownCpuMs } from './counts';
import { freePort, spawnHttp, stop } from './connector-support';

/**
 * The CPU of one order's three calls to the invoicing service (draft create, close, Get Document),
 * on each side of the wire: the client as the workers build it (`tenant-runtime.ts`: no retries,
 * no second schema check) in this process, the sandbox in its own. Nothing else runs here, so the
 * figures are the client's and the sandbox's own microseconds per call, which the end-to-end run
 * cannot separate from the rest of the connector.
 *
 * BENCH_ORDERS (default 2000), BENCH_CONCURRENCY (default 32), BENCH_LATENCY_MS (default 0);
 * BENCH_PROFILE=<dir> writes a --cpu-prof of the sandbox there (run this process with --cpu-prof
 * for the client's).
 */

const ORDERS = Number(process.env.BENCH_ORDERS ?? 2000);
const WARMUP = Math.min(500, ORDERS);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);

/** The bench order's document as the law composes it (bench/connector-support.ts orderTemplate: 12 products and shipping; amounts as decimal text). */
function documentRequest(n: number): Omit<CreateDocumentRequest, 'IsToClose'> {
  const lines: CreateDocumentRequest['Document']['Lines'] = Array.from({ length: 12 }, (_, i) => ({
    Code: `SKU-${1000 + i}`,
    Description: `Artigo de teste número ${i} — edição limitada`,
    UnitPrice: String(Math.round((3 + i * 1.37) * 100) / 100),
    Quantity: String((i % 3) + 1),
    Unit: 'UN',
    Type: 'P',
    TaxValue: i % 4 === 0 ? '6' : '23',
    ProductDiscount: '0',
  }));
  lines.push({ Code: 'PORTES', Description: 'CTT Expresso', UnitPrice: '4.5', Quantity: '1', Unit: 'UN', Type: 'S', TaxValue: '23', ProductDiscount: '0' });
  return {
    Client: {
      Name: 'Maria Silva',
      NIF: '232013969',
      CountryCode: 'PT',
      Address: 'Rua das Flores 12',
      City: 'Porto',
      PostCode: '4050-262',
      PhoneNumber: '912345678',
      Email: 'maria.silva@example.pt',
    },
    Document: {
      Type: 'T',
      Date: '2026-11-28',
      DueDate: '2026-12-28',
      Description: `Encomenda #${900000000 + n} de 2026-11-28`,
      ExternalId: `wc-${900000000 + n}`,
      Lines: lines,
    },
  };
}

export interface ServiceCallFigures {
  orders: number;
  concurrency: number;
  latencyMs: number;
  /** CPU µs per order (three calls) of this process: the client, undici, the loop driving it. */
  clientCpuUsPerOrder: number;
  /** CPU µs per order of the sandbox process. */
  sandboxCpuUsPerOrder: number;
  ordersPerSecond: number;
}

export async function benchServiceCalls(): Promise<ServiceCallFigures> {
  const port = await freePort();
  const sandbox = await spawnHttp(
    'cli/magnifinance.ts',
    ['sandbox', '--port', String(port), '--latency', String(LATENCY_MS), '--finalize-delay', '0'],
    `http://127.0.0.1:${port}/_sandbox/health`,
    {},
    process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
  );
  const client = new MagniFinanceClient({
    email: 'demo@example.com',
    token: 'sandbox-token',
    baseUrl: `http://127.0.0.1:${port}/api/v1.1`,
    retry: false,
    validateLocally: false,
  });
  let next = 0;
  async function orders(limit: number): Promise<void> {
    while (next < limit) {
      const request = documentRequest(next);
      next += 1;
      const draft = await client.saveDraft(request);
      await client.closeDraft(draft.documentId, request);
      const details = await client.getDocument(draft.documentId);
      if (details.documentNumber === undefined) throw new Error(`document ${draft.documentId} has no number`);
    }
  }
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, () => orders(WARMUP)));
    const [ownBefore, sandboxBefore, started] = [ownCpuMs(), cpuMs(sandbox.pid), process.hrtime.bigint()];
    await Promise.all(Array.from({ length: CONCURRENCY }, () => orders(WARMUP + ORDERS)));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const perOrder = (ms: number): number => Math.round((ms * 1000) / ORDERS);
    return {
      orders: ORDERS,
      concurrency: CONCURRENCY,
      latencyMs: LATENCY_MS,
      clientCpuUsPerOrder: perOrder(ownCpuMs() - ownBefore),
      sandboxCpuUsPerOrder: perOrder(cpuMs(sandbox.pid) - sandboxBefore),
      ordersPerSecond: Math.round(ORDERS / seconds),
    };
  } finally {
    await stop(sandbox);
  }
}

if (require.main === module) {
  benchServiceCalls().then(
    (figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
}
