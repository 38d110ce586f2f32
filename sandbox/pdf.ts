import type { SandboxAccount, StoredDocument } from './state';
import { documentFacts } from './pdf/document-facts';
import { renderDocument } from './pdf/layout';

/**
 * The PDF of a closed (or cancelled) document, laid out like a Portuguese certified invoice
 * (pdf/layout.ts) with the marks of pdf/document-facts.ts, and a sandbox mark on every page.
 * Rendered on first download per document and status and cached, so repeated downloads cost
 * nothing and creates never render.
 */

async function render(doc: StoredDocument, issuer: SandboxAccount | undefined): Promise<Buffer> {
  const facts = documentFacts(doc, issuer);
  // Title and Keywords are uncompressed in the file, so a reader (or a test) can see number and status.
  return renderDocument(doc, facts, {
    Title: doc.number ?? `Document ${doc.id}`,
    Subject: `${facts.typeName} ${facts.number} - ATCUD ${facts.atcud} - sandbox document, no fiscal value`,
    Keywords: doc.status === 'canceled' ? 'CANCELLED' : 'CLOSED',
    Author: issuer?.companyName ?? doc.accountTaxId,
  });
}

export class PdfCache {
  private readonly cache = new Map<string, Promise<Buffer>>();

  constructor(private readonly maxEntries = 1000) {}

  pdfFor(doc: StoredDocument, issuer: SandboxAccount | undefined): Promise<Buffer> {
    const key = `${doc.id}:${doc.status}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    if (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    const rendering = render(doc, issuer);
    this.cache.set(key, rendering);
    rendering.catch(() => this.cache.delete(key));
    return rendering;
  }

  clear(): void {
    this.cache.clear();
  }
}
