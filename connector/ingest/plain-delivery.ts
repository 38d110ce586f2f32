import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response, Router } from 'express';

/** A refused delivery: its HTTP status, the reason counted and logged, and what went wrong. */
export type Refusal = { status: number; reason: string; detail?: string };

/** What a platform's delivery logic needs from a request, whichever HTTP layer read it. */
export interface Delivery {
  tenantId: string;
  headers: IncomingHttpHeaders;
  header(name: string): string | undefined;
  /** Answers once; a later reply (a refusal after the answer) is dropped. */
  reply(status: number, body: unknown): void;
  answered(): boolean;
}

/** A platform's webhook logic as both HTTP layers call it. */
export interface DeliveryLogic {
  /** Whether the tenant is one this platform's route serves (checked before the body is read). */
  serves(tenantId: string): boolean;
  refuse(delivery: Delivery, refusal: Refusal): void;
  deliver(delivery: Delivery, body: Buffer): void;
}

function firstValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function expressDelivery(req: Request, res: Response): Delivery {
  return {
    tenantId: String(req.params.tenant),
    headers: req.headers,
    header: (name) => req.get(name),
    reply: (status, body) => {
      if (!res.headersSent) res.status(status).json(body);
    },
    answered: () => res.headersSent,
  };
}

/**
 * POST `<routePrefix><tenant>` on plain Node HTTP, ahead of Express: the route every order takes,
 * where Express's routing, body parser and `res.json` cost about as much as the delivery logic
 * itself. Handles the plain form of the URL (the tenant id as it is configured, no encoding, no
 * compression); anything else falls through (false) to the platform's Express router, which runs the
 * same logic. The body is read up to `maxBodyBytes`: a larger one is refused with 413 as Express's
 * body parser refuses it, and a client that goes away mid-body is counted and logged.
 */
export function plainDeliveryPath(routePrefix: string, maxBodyBytes: number, logic: DeliveryLogic): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith(routePrefix)) return false;
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding !== 'identity') return false;
    const end = req.url.indexOf('?');
    let tenantId = req.url.slice(routePrefix.length, end === -1 ? undefined : end);
    if (tenantId.endsWith('/')) tenantId = tenantId.slice(0, -1);
    if (!/^[A-Za-z0-9_-]+$/.test(tenantId)) return false;

    let answered = false;
    const delivery: Delivery = {
      tenantId,
      headers: req.headers,
      header: (name) => firstValue(req.headers, name),
      reply: (status, body) => {
        if (answered) return;
        answered = true;
        const text = JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      },
      answered: () => answered,
    };
    // Checked before reading the body: no reason to buffer megabytes for a tenant we do not serve.
    if (!logic.serves(tenantId)) {
      logic.refuse(delivery, { status: 404, reason: 'unknown-tenant' });
      return true;
    }
    const tooLarge = (): void => logic.refuse(delivery, { status: 413, reason: 'too-large', detail: `limit ${maxBodyBytes} bytes` });
    const declared = Number(req.headers['content-length']);
    if (declared > maxBodyBytes) {
      tooLarge();
      req.resume();
      return true;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (answered) return; // refused already: drain and drop
      size += chunk.length;
      if (size > maxBodyBytes) {
        chunks.length = 0;
        tooLarge();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (answered) return;
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
      // The request (and these listeners) live until the answer; the socket's reads need not.
      chunks.length = 0;
      logic.deliver(delivery, body);
    });
    // A client that goes away mid-body: counted and logged like every refusal; nobody reads the answer.
    req.on('aborted', () => {
      if (!answered) logic.refuse(delivery, { status: 400, reason: 'request.aborted', detail: 'request aborted' });
    });
    req.on('error', (error: Error) => {
      if (!answered) logic.refuse(delivery, { status: 400, reason: 'bad-request', detail: error.message });
    });
    return true;
  };
}

/** The same route in Express (`path` with its `:tenant`), for the forms the plain path passes on (encoded tenant ids, compressed bodies). */
export function deliveryRouter(path: string, maxBodyBytes: number, logic: DeliveryLogic): Router {
  const router = Router();
  router.post(
    path,
    (req: Request, res: Response, next: NextFunction) => {
      // Checked before reading the body: no reason to buffer megabytes for a tenant we do not serve.
      if (!logic.serves(String(req.params.tenant))) return logic.refuse(expressDelivery(req, res), { status: 404, reason: 'unknown-tenant' });
      next();
    },
    express.raw({ type: () => true, limit: maxBodyBytes }),
    (req: Request, res: Response) => logic.deliver(expressDelivery(req, res), Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)),
  );
  // body-parser errors (too large, aborted, bad encoding) land here; map them, never crash.
  router.use(path, (error: Error & { status?: number; type?: string }, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (error.type === 'entity.too.large') return logic.refuse(expressDelivery(req, res), { status: 413, reason: 'too-large', detail: `limit ${maxBodyBytes} bytes` });
    const status = error.status !== undefined && error.status >= 400 && error.status < 500 ? error.status : 400;
    logic.refuse(expressDelivery(req, res), { status, reason: error.type ?? 'bad-request', detail: error.message });
  });
  return router;
}
