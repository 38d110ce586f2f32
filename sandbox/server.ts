import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { handleAdmin } from './admin-api';
import { checkPdfLink } from './download-links';
import { failure, generalUnknownError } from './envelope';
import { drawFault, sleep } from './faults';
import { BodyTooLargeError, header, readBody, send, sendAnswer, sendJson } from './http-io';
import { DEFAULT_RUNTIME_CONFIG, DEMO_ACCOUNT, SandboxOptions, SandboxOptionsSchema } from './options';
import { PdfCache } from './pdf';
import { SeededRandom } from './random';
import { handleRest } from './rest-api';
import { handleSoap, SERVICE_NAMESPACE, SOAP_OPERATIONS, soapServerFault } from './soap/soap-api';
import { serviceWsdl } from './soap/wsdl';
import { SandboxStore } from './store';

/**
 * The sandbox: a local emulator of the invoicing service (REST under /api/v1.1, SOAP at /soap,
 * PDFs under /_files, sandbox-only admin routes under /_sandbox). Plain node:http so the sandbox
 * is never the bottleneck of a benchmark.
 */

export interface RunningSandbox {
  /** REST root, e.g. http://127.0.0.1:4010/api/v1.1 */
  baseUrl: string;
  soapUrl: string;
  origin: string;
  port: number;
  store: SandboxStore;
  close(): Promise<void>;
}

export type { SandboxOptions } from './options';

const API_PREFIX = '/api/v1.1';

function s3Error(res: ServerResponse, status: number, code: string, message: string): void {
  send(res, status, 'application/xml', `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const opts = SandboxOptionsSchema.parse(options);
  const given = Object.fromEntries(
    Object.keys(DEFAULT_RUNTIME_CONFIG)
      .map((key) => [key, opts[key as keyof typeof DEFAULT_RUNTIME_CONFIG]])
      .filter(([, value]) => value !== undefined),
  );
  const config: typeof DEFAULT_RUNTIME_CONFIG = { ...DEFAULT_RUNTIME_CONFIG, ...given };
  const store = new SandboxStore(opts.accounts ?? [DEMO_ACCOUNT], config, new SeededRandom(opts.seed), opts.persistPath);
  const pdfs = new PdfCache();
  const held = new Set<Socket>();
  let origin = '';

  /** Processes the request, then keeps the answer back and drops the connection later. */
  function holdAndDrop(req: IncomingMessage): void {
    const socket = req.socket;
    held.add(socket);
    const timer = setTimeout(() => {
      held.delete(socket);
      socket.destroy();
    }, store.config.timeoutHoldMs);
    timer.unref();
    socket.once('close', () => {
      clearTimeout(timer);
      held.delete(socket);
    });
  }

  async function serveApi(req: IncomingMessage, res: ServerResponse, url: URL, body: string): Promise<void> {
    if (store.config.latencyMs > 0) await sleep(store.config.latencyMs);
    const fault = drawFault(store);
    const isSoap = url.pathname === '/soap' || url.pathname === '/soap/';
    if (fault === 'error') {
      if (!isSoap) return sendAnswer(res, generalUnknownError());
      const answer = soapServerFault(header(req, 'content-type'));
      return send(res, answer.status, answer.contentType, answer.body);
    }
    const requestOrigin = req.headers.host ? `http://${req.headers.host}` : origin;
    if (isSoap) {
      const answer = handleSoap(store, body, requestOrigin, header(req, 'content-type'));
      if (fault === 'timeout') return holdAndDrop(req);
      return send(res, answer.status, answer.contentType, answer.body);
    }
    const answer = handleRest(store, {
      method: req.method ?? 'GET',
      path: url.pathname.slice(API_PREFIX.length) || '/',
      query: url.searchParams,
      email: header(req, 'email'),
      token: header(req, 'token'),
      password: header(req, 'password'),
      contentType: header(req, 'content-type'),
      body,
      origin: requestOrigin,
    });
    if (fault === 'timeout') return holdAndDrop(req);
    sendAnswer(res, answer);
  }

  async function servePdf(res: ServerResponse, url: URL): Promise<void> {
    const match = /^\/_files\/documents\/(\d+)\.pdf$/.exec(url.pathname);
    const doc = match ? store.document(Number(match[1])) : undefined;
    if (!doc || doc.status === 'draft') return s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
    const check = checkPdfLink(store.state.linkSecret, url.pathname, url.searchParams, store.now());
    if (!check.ok) {
      const message = check.reason === 'expired' ? 'Request has expired' : 'The request signature we calculated does not match the signature you provided.';
      return s3Error(res, 403, 'AccessDenied', message);
    }
    const pdf = await pdfs.pdfFor(doc, store.accountByTaxId(doc.accountTaxId));
    res.writeHead(200, {
      'content-type': 'application/pdf',
      'content-length': pdf.length,
      'content-disposition': `inline; filename="${(doc.number ?? `document-${doc.id}`).replace(/[ /]/g, '_')}.pdf"`,
    });
    res.end(pdf);
  }

  /** GET on the SOAP endpoint, as ASMX answers it: `?wsdl` the description, otherwise a help page. */
  function serveSoapDescription(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const soapUrl = `${req.headers.host ? `http://${req.headers.host}` : origin}/soap`;
    if ([...url.searchParams.keys()].some((key) => key.toLowerCase() === 'wsdl')) {
      return send(res, 200, 'text/xml; charset=utf-8', serviceWsdl(soapUrl, SERVICE_NAMESPACE));
    }
    const items = SOAP_OPERATIONS.map((operation) => `<li>${operation}</li>`).join('');
    send(res, 200, 'text/html; charset=utf-8', `<!doctype html><title>Invoicing (sandbox)</title><h1>Invoicing</h1><p>SOAP 1.1 and 1.2 operations in namespace ${SERVICE_NAMESPACE}:</p><ul>${items}</ul><p><a href="?wsdl">Service description (WSDL)</a></p>`);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.local');
    const body = await readBody(req);
    if ((url.pathname === '/soap' || url.pathname === '/soap/') && req.method === 'GET') return serveSoapDescription(req, res, url);
    if (url.pathname.startsWith(`${API_PREFIX}/`) || url.pathname === '/soap' || url.pathname === '/soap/') {
      return serveApi(req, res, url, body);
    }
    if (url.pathname.startsWith('/_sandbox/')) {
      // Admin bodies are plain JSON (the API's exact number-text rule is not needed here).
      let value: unknown;
      try {
        value = body.trim() === '' ? undefined : (JSON.parse(body) as unknown);
      } catch {
        return sendJson(res, 400, { error: 'The body is not valid JSON' });
      }
      const answer = handleAdmin(store, req.method ?? 'GET', url.pathname.slice('/_sandbox'.length), url.searchParams, value);
      if (url.pathname === '/_sandbox/reset') pdfs.clear();
      if (answer.file) {
        res.setHeader('Content-Disposition', `attachment; filename="${answer.file.name}"`);
        return send(res, answer.status, answer.file.contentType, answer.file.bytes);
      }
      return sendJson(res, answer.status, answer.body);
    }
    if (url.pathname.startsWith('/_files/') && req.method === 'GET') return servePdf(res, url);
    sendAnswer(res, failure('ElementDoesNotExist', `No such endpoint: ${req.method} ${url.pathname}`));
  }

  const server: Server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof BodyTooLargeError) return;
      process.stderr.write(`sandbox: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      if (!res.headersSent) sendAnswer(res, generalUnknownError());
    });
  });
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const host = opts.host && opts.host !== '0.0.0.0' && opts.host !== '::' ? opts.host : '127.0.0.1';
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    baseUrl: `${origin}${API_PREFIX}`,
    soapUrl: `${origin}/soap`,
    origin,
    port,
    store,
    close: async () => {
      for (const socket of held) socket.destroy();
      held.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.flush();
    },
  };
}
