import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TransportTimeoutError } from '../../client/errors';
import { createUndiciTransport } from '../../client/undici-transport';

/**
 * The undici transport's own deadline and cancellation, against a server that never finishes its
 * answer: the whole call is bounded (undici's per-phase timeouts alone are not: a trickle of
 * bytes resets its body timeout), and the connection is given up, not left open.
 */

let server: Server;
let origin = '';
const closed: string[] = [];

function trickle(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => res.write(' '), 20);
  res.on('close', () => {
    clearInterval(timer);
    closed.push(req.url ?? '');
  });
}

beforeAll(async () => {
  server = createServer(trickle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

async function closedAfter(path: string): Promise<void> {
  while (!closed.includes(path)) await new Promise((resolve) => setImmediate(resolve));
}

describe('the undici transport', () => {
  it('ends a trickling answer at the whole-call deadline and closes the connection', async () => {
    const transport = createUndiciTransport({ headersTimeoutMs: 60_000, bodyTimeoutMs: 60_000 });
    const error = await transport({ method: 'GET', url: `${origin}/trickle`, headers: {}, timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 200 });
    await closedAfter('/trickle');
  });

  it("rejects with the caller's reason when the caller aborts, and closes the connection", async () => {
    const transport = createUndiciTransport();
    const controller = new AbortController();
    const answer = transport({ method: 'GET', url: `${origin}/aborted`, headers: {}, timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 50);
    await expect(answer).rejects.toThrow('user left');
    await closedAfter('/aborted');
  });

  it("rejects with the caller's reason at once when the caller's signal is already aborted", async () => {
    const transport = createUndiciTransport();
    const controller = new AbortController();
    controller.abort(new Error('gone before'));
    await expect(transport({ method: 'GET', url: `${origin}/never`, headers: {}, timeoutMs: 60_000, signal: controller.signal })).rejects.toThrow('gone before');
    expect(closed).not.toContain('/never');
  });
});
