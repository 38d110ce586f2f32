import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { ElementDoesNotExistError } from '../../client/errors';
import { idFrom } from '../core/jobs';
import type { PdfLinkSigner } from './pdf-link';
import { ClientLimiter, requestClient, type LimitPolicy } from '../core/client-limiter';
import type { TenantRuntime } from '../pipeline/tenant-runtime';

/**
 * A fresh DownloadUrl is reused this long (the service's own expire after two hours): a link opened
 * many times, or by many people, costs one Get Document per 10 minutes, not one per visit.
 */
export const PDF_URL_CACHE_MS = 10 * 60_000;
/** Visits of PDF links per client per minute; more answer 429 (a person opens a few, a scraper many). */
export const PDF_VISITS_PER_MINUTE = 30;
/** Keyed like the login's limit (core/client-limiter.ts): the address, and the TCP peer with a 20 times larger allowance. */
const PDF_VISIT_POLICY: LimitPolicy = { free: PDF_VISITS_PER_MINUTE, peerFactor: 20, wait: { kind: 'window', windowMs: 60_000 } };
const MAX_CACHED = 5_000;

export interface PdfRouteDeps {
  tenants: ReadonlyMap<string, TenantRuntime>;
  links: PdfLinkSigner;
  logger: Logger;
  now?: () => number;
}

/** GET /documents/:tenant/:documentId/pdf?exp=&sig= -> 302 to a fresh (or recently fetched) DownloadUrl. */
export function pdfRouter(deps: PdfRouteDeps): Router {
  const router = Router();
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { url: string; until: number }>();
  const visits = new ClientLimiter(PDF_VISIT_POLICY, now);

  router.get('/documents/:tenant/:documentId/pdf', async (req: Request, res: Response) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    const documentId = idFrom(req.params.documentId);
    if (!tenant || documentId === null) return void res.status(404).send('Unknown document');
    const at = now();
    const wait = visits.count(requestClient(req));
    if (wait > 0) {
      res.setHeader('Retry-After', String(Math.ceil(wait / 1_000)));
      return void res.status(429).send('Too many PDF requests from this address; try again in a minute');
    }
    const exp = typeof req.query.exp === 'string' ? req.query.exp : undefined;
    const sig = typeof req.query.sig === 'string' ? req.query.sig : undefined;
    const verdict = deps.links.verify(tenant.config.id, documentId, exp, sig);
    if (verdict === 'bad-signature') return void res.status(403).send('This link is not valid');
    if (verdict === 'expired') return void res.status(410).send('This link has expired; ask the shop for the document');
    res.setHeader('Cache-Control', 'no-store');
    const key = `${tenant.config.id}:${documentId}`;
    const cached = cache.get(key);
    if (cached && cached.until > at) return void res.redirect(302, cached.url);
    try {
      const details = await tenant.invoicing.getDocument(documentId, tenant.documentCallOptions);
      if (!details.downloadUrl) return void res.status(409).send('The document has no PDF yet; try again in a minute');
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
      cache.set(key, { url: details.downloadUrl, until: at + PDF_URL_CACHE_MS });
      res.redirect(302, details.downloadUrl);
    } catch (error) {
      if (error instanceof ElementDoesNotExistError) return void res.status(404).send('Unknown document');
      deps.logger.warn({ tenant: tenant.config.id, documentId, err: (error as Error).message }, 'pdf link: service failed');
      res.status(502).send('The invoicing service did not answer; try again shortly');
    }
  });
  return router;
}
