/**
 * Preloaded (`node --require`) into a process the benchmark spawns (the sandbox, the connector):
 * counts the HTTP requests its servers receive, by method and path (numbers as `:id`, the SOAP
 * action appended), and, with BENCH_REDIS_PORT, the writes to Redis sockets (`redis writes`: a
 * command, a pipeline or a MULTI sent at once is one write and one round trip), their bytes
 * (`redis bytes`), and each EVALSHA by its script's sha (`evalsha <sha>`: calls, `evalsha bytes
 * <sha>`: the bytes of those commands; bench/counts.ts names the scripts). Answers
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

const count = (name: string, by: number): void => void counts.set(name, (counts.get(name) ?? 0) + by);

const EVALSHA = Buffer.from('$7\r\nevalsha\r\n', 'latin1');

/** The end of the RESP array of bulk strings at `start` (`*N` then N `$L` strings), or -1 past the chunk. */
function commandEnd(buffer: Buffer, start: number): number {
  let at = buffer.indexOf(13, start);
  if (at < 0) return -1;
  let items = Number(buffer.toString('latin1', start + 1, at));
  at += 2;
  while (items-- > 0) {
    const lineEnd = buffer.indexOf(13, at);
    if (lineEnd < 0 || buffer[at] !== 36) return -1;
    at = lineEnd + 2 + Number(buffer.toString('latin1', at + 1, lineEnd)) + 2;
  }
  return at <= buffer.length ? at : -1;
}

/** Counts the EVALSHAs of one written chunk by script (the first 8 hex digits of its sha), and their bytes. */
function countScripts(chunk: Buffer): void {
  for (let found = chunk.indexOf(EVALSHA); found >= 0; found = chunk.indexOf(EVALSHA, found + EVALSHA.length)) {
    const start = chunk.lastIndexOf(42, found); // '*': the command's array header
    const sha = chunk.toString('latin1', found + EVALSHA.length + 5, found + EVALSHA.length + 13);
    const end = start < 0 ? -1 : commandEnd(chunk, start);
    count(`evalsha ${sha}`, 1);
    if (end > 0) count(`evalsha bytes ${sha}`, end - start);
  }
}

if (Number.isInteger(redisPort)) {
  const write = Socket.prototype.write;
  Socket.prototype.write = function countingWrite(this: Socket, ...args: unknown[]): boolean {
    if (this.remotePort === redisPort) {
      count('redis writes', 1);
      const [data, encoding] = args;
      if (typeof data === 'string' || Buffer.isBuffer(data)) {
        count('redis bytes', typeof data === 'string' ? Buffer.byteLength(data, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : data.length);
        if (data.includes('evalsha')) countScripts(typeof data === 'string' ? Buffer.from(data, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : data);
      }
    }
    return Reflect.apply(write, this, args) as boolean;
  } as typeof Socket.prototype.write;
}
