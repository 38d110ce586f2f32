import type { OtherSystemDocument } from '../shop-platform';
import { merchantNoteOf } from './order-note';

/**
 * Other invoicing apps' marks on a Shopify order. An app that issued a certified document for an
 * order may say so on the order, in one of three places the connector can read:
 * - a **tag** (Shopify's tags are case-insensitive words on the order; every app may add them);
 * - an **order attribute** (`customAttributes`, "additional details" in the admin; `note_attributes`
 *   in a webhook body);
 * - an **order metafield** in the app's own namespace (not an app-reserved `app--<id>` one, which only
 *   its owner reads);
 * - words in the order's **note** (the merchant's part: the connector's own block is never read as a mark).
 * None of the Portuguese apps (InvoiceXpress's Xpressifi, Moloni, TOConline Invoices, Vendus,
 * CentralGest, Jasmin) names its mark in its public documentation (docs/shopify.md, "Documents from
 * other apps", lists the pages read): there is no built-in mark, and a tenant lists the marks its
 * previous app leaves in `settings.otherSystemMetaKeys`, one per entry, optionally named:
 * `tag:faturado`, `Moloni=attribute:moloni_document`, `InvoiceXpress=metafield:xpressifi.invoice_number`.
 *
 * The order's summary (./order-summary.ts) carries its tags, attributes and the configured
 * metafields as meta entries keyed the same way (`tag:<tag>`, `attribute:<key>`,
 * `metafield:<namespace>.<key>`), so the ingest's gate (connector/ingest/plan-order.ts) reads them
 * through this platform like WooCommerce's meta keys.
 */

export type ShopifyMarkKind = 'tag' | 'attribute' | 'metafield' | 'note';

export interface ShopifyMark {
  /** Who leaves it, as the tenant named it (or the mark itself). */
  system: string;
  kind: ShopifyMarkKind;
  /** The tag, the attribute's key, `namespace.key`, or the words the order's note holds. */
  name: string;
}

const MARK = /^(?:([^=]{1,80})=)?(tag|attribute|metafield|note):(.{1,150})$/;

/** A tenant's entry of settings.otherSystemMetaKeys as a Shopify mark; undefined when it is not one (a WooCommerce meta key). */
export function parseShopifyMark(entry: string): ShopifyMark | undefined {
  const match = MARK.exec(entry.trim());
  if (!match) return undefined;
  const kind = match[2] as ShopifyMarkKind;
  const name = match[3].trim();
  if (kind === 'metafield' && !/^[^.\s]+\.[^.\s]+$/.test(name)) return undefined;
  return { system: match[1]?.trim() || `${kind}:${name}`, kind, name };
}

/** The meta key a mark is carried under in an order's summary. Tags are compared without case, as Shopify does. */
export function markKey(kind: ShopifyMarkKind, name: string): string {
  return `${kind}:${kind === 'tag' ? name.trim().toLowerCase() : name}`;
}

/** The metafields (`namespace.key`) the tenant's marks name: what the order listing reads besides our own. */
export function markedMetafields(extraKeys: readonly string[]): string[] {
  return extraKeys.flatMap((entry) => {
    const mark = parseShopifyMark(entry);
    return mark?.kind === 'metafield' ? [mark.name] : [];
  });
}

/** The meta key an order's note is carried under (the merchant's part: the connector's own block is left out). */
const NOTE_KEY = 'note';

/** An order's possible marks as summary meta entries. */
export function markMeta(order: {
  tags: readonly string[];
  attributes: readonly { key: string; value: string | null }[];
  metafields?: readonly { namespace: string; key: string; value: string }[];
  note?: string | null;
}): { key: string; value: string }[] {
  const note = order.note ? merchantNoteOf(order.note) : '';
  return [
    ...(note.trim() !== '' ? [{ key: NOTE_KEY, value: note }] : []),
    ...order.tags.filter((tag) => tag.trim() !== '').map((tag) => ({ key: markKey('tag', tag), value: tag.trim() })),
    ...order.attributes.map((a) => ({ key: markKey('attribute', a.key), value: a.value ?? '' })),
    ...(order.metafields ?? []).map((m) => ({ key: markKey('metafield', `${m.namespace}.${m.key}`), value: m.value })),
  ];
}

function shortened(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The first of the tenant's marks found on the order (ShopPlatform.otherSystemDocument). */
export function shopifyOtherSystemDocument(meta: readonly { key: string; value?: unknown }[], extraKeys: readonly string[]): OtherSystemDocument | undefined {
  for (const entry of extraKeys) {
    const mark = parseShopifyMark(entry);
    if (!mark) continue;
    if (mark.kind === 'note') {
      // Words an app writes in the order's note ("Fatura FR 2026/12"), found without case: the line that holds them.
      const note = meta.find((m) => m.key === NOTE_KEY && typeof m.value === 'string');
      const line = String(note?.value ?? '')
        .split('\n')
        .find((text) => text.toLowerCase().includes(mark.name.toLowerCase()));
      if (line) return { system: mark.system, key: `note:${mark.name}`, value: shortened(line.trim()) };
      continue;
    }
    const key = markKey(mark.kind, mark.name);
    const found = meta.find((m) => m.key === key && typeof m.value === 'string' && m.value.trim() !== '' && m.value.trim() !== '0');
    if (found) return { system: mark.system, key: `${mark.kind}:${mark.name}`, value: shortened(String(found.value).trim()) };
  }
  return undefined;
}
