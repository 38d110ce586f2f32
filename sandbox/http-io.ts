import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxAnswer } from './envelope';

/** Small HTTP helpers for the sandbox's node:http server (no framework: it must stay fast). */

export class BodyTooLargeError extends Error {}

export function readBody(req: IncomingMessage, limitBytes = 5 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        reject(new BodyTooLargeError(`Body larger than ${limitBytes} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function send(res: ServerResponse, status: number, contentType: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

export function sendAnswer(res: ServerResponse, answer: SandboxAnswer): void {
  sendJson(res, answer.status, answer.envelope);
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
