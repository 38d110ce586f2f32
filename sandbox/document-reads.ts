import type { Caller } from './auth';
import { documentGetOut } from './document-view';
import { findOwnDocument } from './documents';
import { signedPdfUrl } from './download-links';
import { elementDoesNotExist, notNumberedYet, SandboxAnswer, success } from './envelope';
import type { StoredDocument } from './state';
import type { SandboxStore } from './store';

/**
 * Get Document and Get Document Property. A closed document's number and PDF link are handed out
 * only once `finalizeDelayMs` has passed since it closed (the spec's "at least 10 seconds").
 * Before that, Get Document answers 6 ElementDoesNotExist, as the public error list describes a
 * document read too early (`notNumberedAnswer: 'null-number'` answers a success with
 * DocumentNumber and DownloadUrl null instead, the spec's reading); Get Document Property always
 * answers the details (payment state) with both null. Drafts are read as they are.
 * Each read signs a fresh link valid for `downloadUrlTtlSeconds`.
 */

export function isFinalized(store: SandboxStore, doc: StoredDocument): boolean {
  if (doc.status === 'draft' || doc.closedAt === undefined) return false;
  return doc.finalizedAt !== undefined || store.now() >= doc.closedAt + store.config.finalizeDelayMs;
}

export function readDocument(
  store: SandboxStore,
  caller: Caller,
  documentId: number,
  origin: string,
  mode: 'get' | 'property',
): SandboxAnswer {
  const doc = findOwnDocument(store, caller, documentId);
  if (!doc) return elementDoesNotExist(documentId);
  const finalized = isFinalized(store, doc);
  if (!finalized && mode === 'get' && doc.status === 'closed' && store.config.notNumberedAnswer === 'element-does-not-exist') {
    return notNumberedYet(documentId);
  }
  if (finalized && mode === 'get' && doc.finalizedAt === undefined) {
    doc.finalizedAt = store.now();
    store.changed();
  }
  const downloadUrl = finalized
    ? signedPdfUrl(origin, store.state.linkSecret, {
        documentId: doc.id,
        issuedAtMs: store.now(),
        ttlSeconds: store.config.downloadUrlTtlSeconds,
      })
    : null;
  return success(documentGetOut(doc, { finalized, downloadUrl }));
}
