import type { Request, Response } from 'express';
import { pickLang, t } from './i18n';
import { html, page } from './page';

/**
 * The connector's root URL: a person who opens it sees that it runs and whether it can take orders
 * (Redis), and where the console is. Nothing about shops or orders: this page has no login.
 */
export function statusPage(redisReady: () => Promise<boolean>) {
  return async (req: Request, res: Response): Promise<void> => {
    const lang = pickLang(req.query.lang, req.get('cookie'), req.get('accept-language'));
    const ready = await redisReady();
    const body = html`<section><h2>${ready ? t(lang, 'running') : t(lang, 'redisDown')}</h2>
<p class="muted">/healthz · /readyz · /metrics</p><p><a href="/console">${t(lang, 'openConsole')}</a></p></section>`;
    res.status(ready ? 200 : 503).type('html').send(page(lang, t(lang, 'title'), body));
  };
}
