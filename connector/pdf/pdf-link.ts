import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The PDF link written on orders. The service's DownloadUrl is a presigned URL that expires after
 * two hours, so the order carries our own link instead: signed with the connector's secret, valid
 * for a long time, and answered by fetching a fresh DownloadUrl and redirecting to it.
 */
export interface PdfLinkSigner {
  link(tenant: string, documentId: number, now?: number): string;
  verify(tenant: string, documentId: number, exp: string | undefined, sig: string | undefined, now?: number): 'ok' | 'expired' | 'bad-signature';
}

export function pdfLinkSigner(options: { publicUrl: string; secret: string; ttlDays: number }): PdfLinkSigner {
  const base = options.publicUrl.replace(/\/+$/, '');
  const sign = (tenant: string, documentId: number, exp: number): string =>
    createHmac('sha256', options.secret).update(`pdf:${tenant}:${documentId}:${exp}`).digest('base64url');
  return {
    link(tenant, documentId, now = Date.now()) {
      const exp = Math.floor(now / 1000) + options.ttlDays * 86_400;
      return `${base}/documents/${encodeURIComponent(tenant)}/${documentId}/pdf?exp=${exp}&sig=${sign(tenant, documentId, exp)}`;
    },
    verify(tenant, documentId, exp, sig, now = Date.now()) {
      if (exp === undefined || sig === undefined || !/^\d{1,12}$/.test(exp)) return 'bad-signature';
      const expected = Buffer.from(sign(tenant, documentId, Number(exp)));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'bad-signature';
      return Number(exp) * 1000 < now ? 'expired' : 'ok';
    },
  };
}
