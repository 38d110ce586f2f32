import express, { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Ledger } from '../core/ledger';
import type { TenantRuntime } from '../pipeline/tenant-runtime';
import type { RedisClient } from '../core/redis-connection';
import { packJson } from './month-render';
import { MONTH_TEXT, tenantMonthPack } from './month-service';
import { SaftFileError } from './saft-reader';
import { MonthSignOffs } from './sign-off';
import { adminUser } from '../admin/basic-auth';

/**
 * The admin API's month pack (behind the admin API's auth): GET /month/:tenant/:month answers the
 * pack as JSON from the shop and our ledger; POST the month's SAF-T file as the body (any content
 * type but JSON, up to 100 MB) to reconcile it too. Reads only, but for the sign-off: POST
 * /month/:tenant/:month/close (the accountant may) and /reopen.
 */
export interface MonthRouteDeps {
  tenants: ReadonlyMap<string, TenantRuntime>;
  redis: RedisClient;
  prefix: string;
  ledger: Ledger;
}

const Params = z.object({ tenant: z.string().max(100), month: z.string().regex(MONTH_TEXT) });
/** A SAF-T of a busy shop's month is tens of MB. */
export const SAFT_UPLOAD_LIMIT = '100mb';

export function monthApi(deps: MonthRouteDeps): Router {
  const router = Router();
  const answer = async (req: Request, res: Response, saft?: Buffer): Promise<void> => {
    const params = Params.safeParse(req.params);
    const tenant = params.success ? deps.tenants.get(params.data.tenant) : undefined;
    if (!params.success || !tenant) return void res.status(404).json({ error: 'unknown tenant, or the month is not yyyy-mm' });
    try {
      res.json(packJson(await tenantMonthPack(tenant, deps, params.data.month, saft)));
    } catch (error) {
      if (!(error instanceof SaftFileError)) throw error;
      res.status(400).json({ error: 'not a SAF-T (PT) 1.04 sales file', code: error.code, detail: error.detail });
    }
  };
  router.get('/month/:tenant/:month', (req, res, next) => answer(req, res).catch(next));
  // The sign-off: closing is the accountant's one write (connector/admin/roles.ts); reopening the administrator's.
  const signOffs = new MonthSignOffs(deps.redis, deps.prefix);
  router.post('/month/:tenant/:month/close', (req, res, next) => {
    const params = Params.safeParse(req.params);
    if (!params.success || !deps.tenants.has(params.data.tenant)) return void res.status(404).json({ error: 'unknown tenant, or the month is not yyyy-mm' });
    signOffs.close(params.data.tenant, { month: params.data.month, by: adminUser(req), at: Date.now() }).then((signOff) => res.json({ closed: true, ...signOff }), next);
  });
  router.post('/month/:tenant/:month/reopen', (req, res, next) => {
    const params = Params.safeParse(req.params);
    if (!params.success || !deps.tenants.has(params.data.tenant)) return void res.status(404).json({ error: 'unknown tenant, or the month is not yyyy-mm' });
    signOffs.reopen(params.data.tenant, params.data.month).then((wasClosed) => res.json({ closed: false, wasClosed }), next);
  });
  router.post('/month/:tenant/:month', express.raw({ type: (req) => !String(req.headers['content-type'] ?? '').includes('json'), limit: SAFT_UPLOAD_LIMIT }), (req, res, next) => {
    if (!Buffer.isBuffer(req.body) || req.body.length === 0) return void res.status(400).json({ error: 'send the SAF-T file as the body' });
    answer(req, res, req.body).catch(next);
  });
  return router;
}
