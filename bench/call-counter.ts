/**
 * Preloaded (`node --require`) into a process the benchmark spawns (the sandbox, the connector):
 * counts the HTTP requests its servers receive, by method and path (numbers as `:id`, the SOAP
 * action appended), and, with BENCH_REDIS_PORT, the writes to Redis sockets (`redis writes`: a
 * command, a pipeline or a MULTI sent at once is one write and one round trip). Answers
 * `GET /_bench/calls` with the counts itself, so the process's own code is unchanged.
 */
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';

const counts = new Map<string, number>();

function callName(req: IncomingMessage): string {
  const path = (req.url ?? '/').split('?')[0].replace(/\/\d+(?=\/|$)/g, '/:id');
  const action = req.headers.soapaction;
  return `${req.method ?? '?'} ${path}${typeof action === 'string' && action !== '' ? ` ${action.replace(/^"|"$/g, '').split('/').pop() ?? ''}` : ''}`;
}

const emit = Server.prototype.emit;
Server.prototype.emit = function countingEmit(this: Server, event: string | symbol, ...args: unknown[]): boolean {
  if (event === 'request') {
    const [req, res] = args as [IncomingMessage, ServerResponse];
    if (req.url === '/_bench/calls') {
      const text = JSON.stringify(Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b))));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return true;
    }
    if (req.url === '/_bench/calls/reset') {
      counts.clear();
      res.writeHead(204).end();
      return true;
    }
    const name = callName(req);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return Reflect.apply(emit, this, [event, ...args]) as boolean;
} as typeof Server.prototype.emit;

const redisPort = Number(process.env.BENCH_REDIS_PORT ?? NaN);
if (Number.isInteger(redisPort)) {
  const write = Socket.prototype.write;
  Socket.prototype.write = function countingWrite(this: Socket, ...args: unknown[]): boolean {
    if (this.remotePort === redisPort) counts.set('redis writes', (counts.get('redis writes') ?? 0) + 1);
    return Reflect.apply(write, this, args) as boolean;
  } as typeof Socket.prototype.write;
}
