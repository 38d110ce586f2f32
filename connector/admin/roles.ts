import type { NextFunction, Request, Response } from 'express';
import { pickLang } from '../console/i18n';
import type { Lang } from '../words';
import { adminUser } from './basic-auth';

/**
 * The accountant's role (admin.accountant in the tenants file): every page of the console and every
 * read of the admin API, and no change. Any other method than GET or HEAD is refused with 403 before
 * it reaches a route, except the month pack's SAF-T upload, which reads the file for one answer and
 * keeps nothing, and the month's sign-off (closing it is the accountant's; reopening is not).
 */
const READ_ONLY_POSTS = [/^\/console\/[^/]+\/month\/\d{4}-\d{2}(\/close)?$/, /^\/admin\/api\/month\/[^/]+\/\d{4}-\d{2}(\/close)?$/];

const READ_ONLY_REFUSAL: Record<Lang, (user: string) => string> = {
  pt: (user) => `O utilizador ${user} é o contabilista: vê todas as páginas e não altera nada. Peça ao administrador da loja que o faça.`,
  en: (user) => `User ${user} is the accountant: sees every page and changes nothing. Ask the shop's administrator to do it.`,
};

export function accountantReadsOnly(accountant: string | undefined): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    if (accountant === undefined || adminUser(req) !== accountant) return next();
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    const path = req.originalUrl.split('?')[0];
    if (req.method === 'POST' && READ_ONLY_POSTS.some((allowed) => allowed.test(path))) return next();
    const lang = pickLang(req.query.lang, req.get('cookie'), req.get('accept-language'));
    const text = READ_ONLY_REFUSAL[lang](accountant);
    res.status(403).type('text').send(text);
  };
}
