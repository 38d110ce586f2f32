import { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { ElementDoesNotExistError } from '../client/errors';
import type { PdfLinkSigner } from './pdf-link';
import type { TenantRuntime } from './pipeline/tenant-runtime';

/** GET /documents/:tenant/:documentId/pdf?exp=&sig= -> 302 to a fresh DownloadUrl. */
export function pdfRouter(deps: { tenants: ReadonlyMap<string, TenantRuntime>; links: PdfLinkSigner; logger: Logger }): Router {
  const router = Router();
  router.get('/documents/:tenant/:documentId/pdf', async (req: Request, res: Response) => {
    const tenant = deps.tenants.get(String(req.params.tenant));
    const documentId = Number(req.params.documentId);
    if (!tenant || !Number.isInteger(documentId) || documentId <= 0) return void res.status(404).send('Unknown document');
    const exp = typeof req.query.exp === 'string' ? req.query.exp : undefined;
    const sig = typeof req.query.sig === 'string' ? req.query.sig : undefined;
    const verdict = deps.links.verify(tenant.config.id, documentId, exp, sig);
    if (verdict === 'bad-signature') return void res.status(403).send('This link is not valid');
    if (verdict === 'expired') return void res.status(410).send('This link has expired');
    try {
      const details = await tenant.invoicing.getDocument(documentId, tenant.documentCallOptions);
      if (!details.downloadUrl) return void res.status(409).send('The document has no PDF yet; try again in a minute');
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, details.downloadUrl);
    } catch (error) {
      if (error instanceof ElementDoesNotExistError) return void res.status(404).send('Unknown document');
      deps.logger.warn({ tenant: tenant.config.id, documentId, err: (error as Error).message }, 'pdf link: service failed');
      res.status(502).send('The invoicing service did not answer; try again shortly');
    }
  });
  return router;
}
