import type { Caller } from './auth';
import type { CreateInput } from './document-model';
import { elementDoesNotExist, failure, SandboxAnswer, success } from './envelope';
import { DEFAULT_SERIE, NUMBER_PREFIX, TYPE_NAMES } from './reference-data';
import type { StoredDocument } from './state';
import type { SandboxStore } from './store';
import type { Violation } from './validation/checker';
import { createFailureName, violation, violationAnswer } from './violations';
import { documentTotals } from './document-view';
import { formatDecimalComma } from '../client/money';

/**
 * The document life cycle of the spec's state table: create as draft or closed, update or close
 * a draft through Document.Id, cancel a closed document. Validation of the raw input happened in
 * validation/create-input.ts; this module checks what needs the stored state.
 */

function seriesKey(accountTaxId: string, doc: { document: { Type: string; Serie?: string } }): string {
  return `${accountTaxId}|${doc.document.Type}|${doc.document.Serie ?? DEFAULT_SERIE}`;
}

function findDuplicate(store: SandboxStore, accountTaxId: string, input: CreateInput, exceptId?: number): StoredDocument | undefined {
  const externalId = input.document.ExternalId;
  if (externalId === undefined) return undefined;
  return store.documentsWithExternalId(accountTaxId, input.client.NIF, externalId).find((d) => d.id !== exceptId);
}

/** Checks that need stored state; returns the draft being updated, if any. */
function checkAgainstState(
  store: SandboxStore,
  caller: Caller,
  input: CreateInput,
): { violations: Violation[]; draft?: StoredDocument; missingId?: number } {
  const violations: Violation[] = [];
  const accountTaxId = caller.account.taxId;
  const partnership = caller.viaPartnership?.partnership;
  if (partnership && !partnership.allowedTypes.includes(input.document.Type)) {
    violations.push(
      violation(
        'DocumentTypeNotAllowedForPartner',
        'DocumentDetailType',
        `Type ${input.document.Type} is not enabled for partner invoicing (allowed: ${partnership.allowedTypes.join(', ')})`,
      ),
    );
  }
  let draft: StoredDocument | undefined;
  const id = input.document.Id;
  if (id !== undefined) {
    const found = store.document(id);
    if (!found || found.accountTaxId !== accountTaxId || found.kind !== input.kind) return { violations, missingId: id };
    if (found.status !== 'draft') {
      violations.push(violation('DocumentIsClosed', 'DocumentDetailId', `Document ${id} is closed and cannot be changed`));
    } else {
      draft = found;
    }
  }
  // 18 SerieDataNotMatch (public error list): a series the account has not configured for the type.
  const configured = caller.account.series?.[input.document.Type];
  const serie = input.document.Serie;
  if (configured && serie !== undefined && !configured.includes(serie)) {
    violations.push({
      ...violation('SerieDataNotMatch', 'DocumentDetailSerie', `Series ${serie} does not exist for type ${input.document.Type} (configured: ${configured.join(', ')})`),
      category: 'SerieDataNotMatch',
    });
  }
  const duplicate = findDuplicate(store, accountTaxId, input, id);
  if (duplicate) violations.push(violation('DocumentIsADuplicate', 'DocumentDetailExternalId', 'Duplicate Document'));
  if (input.isToClose) {
    const series = store.state.series[seriesKey(accountTaxId, input)];
    if (series && input.document.Date < series.lastClosedDate) {
      violations.push(
        violation(
          'MustBePosteriorToMostCurrentClosedDocument',
          'DocumentDetailDate',
          `The date must be equal to or after ${series.lastClosedDate}, the date of the most recent closed document of this series; change the series or the date`,
        ),
      );
    }
  }
  return { violations, draft };
}

function close(store: SandboxStore, doc: StoredDocument): void {
  const key = seriesKey(doc.accountTaxId, doc);
  const series = store.state.series[key] ?? { lastSequence: 0, lastClosedDate: doc.document.Date };
  series.lastSequence += 1;
  if (doc.document.Date > series.lastClosedDate) series.lastClosedDate = doc.document.Date;
  store.state.series[key] = series;
  doc.status = 'closed';
  doc.closedAt = store.now();
  doc.sequence = series.lastSequence;
  doc.number = `${NUMBER_PREFIX[doc.document.Type]} ${doc.document.Serie ?? DEFAULT_SERIE}/${series.lastSequence}`;
  const account = store.accountByTaxId(doc.accountTaxId);
  if (doc.kind === 'waybill' && account?.atCommunication) {
    // The tax authority's code that travels with the goods; unique and stable per document.
    doc.atCode = `AT${doc.id.toString().padStart(6, '0')}${store.random.hex(4).toUpperCase()}`;
  }
  if (doc.sendTo) {
    const totals = documentTotals(doc);
    for (const to of doc.sendTo.split(';')) {
      store.sendEmail({
        kind: 'document',
        to,
        documentId: doc.id,
        subject: `${TYPE_NAMES[doc.document.Type]} ${doc.number} - ${account?.companyName ?? doc.accountTaxId}`,
        body:
          `Dear ${doc.client.LegalName ?? doc.client.Name},\n\n` +
          `please find attached ${TYPE_NAMES[doc.document.Type]} ${doc.number} of ${doc.document.Date}, ` +
          `total ${formatDecimalComma(totals.amount)} EUR.\n\n${account?.companyName ?? ''}`,
        attachment: `${doc.number.replace(/[ /]/g, '_')}.pdf`,
      });
    }
  }
}

export function createDocument(store: SandboxStore, caller: Caller, input: CreateInput): SandboxAnswer {
  const { violations, draft, missingId } = checkAgainstState(store, caller, input);
  if (missingId !== undefined) return elementDoesNotExist(missingId);
  if (violations.length > 0) return violationAnswer(violations, undefined, createFailureName(store.config));
  const now = store.now();
  let doc: StoredDocument;
  if (draft) {
    store.updateDraft(draft, (d) => {
      d.client = input.client;
      d.document = { ...input.document, Id: d.id };
      d.sendTo = input.sendTo;
      d.updatedAt = now;
    });
    doc = draft;
  } else {
    doc = store.addDocument({
      accountTaxId: caller.account.taxId,
      kind: input.kind,
      status: 'draft',
      client: input.client,
      document: input.document,
      sendTo: input.sendTo,
      createdAt: now,
      updatedAt: now,
      payments: [],
      createdByPartnerOf: caller.viaPartnership?.owner.taxId,
    });
    doc.document = { ...doc.document, Id: doc.id };
  }
  if (input.isToClose) close(store, doc);
  store.changed();
  if (doc.kind === 'waybill') {
    return success({
      DocumentId: doc.id,
      DocumentNumber: doc.number ?? null,
      ...(doc.atCode ? { ATCode: doc.atCode } : {}),
      ErrorMessage: null,
    });
  }
  return success({ DocumentId: doc.id, ErrorMessage: null });
}

export function findOwnDocument(store: SandboxStore, caller: Caller, documentId: number): StoredDocument | undefined {
  const doc = store.document(documentId);
  return doc && doc.accountTaxId === caller.account.taxId ? doc : undefined;
}

export function cancelDocument(store: SandboxStore, caller: Caller, documentId: number): SandboxAnswer {
  const doc = findOwnDocument(store, caller, documentId);
  if (!doc) return elementDoesNotExist(documentId);
  if (doc.status !== 'closed') {
    const [type, detail] =
      doc.status === 'canceled'
        ? ['DocumentIsAlreadyCancelled', `Document ${documentId} is already cancelled`]
        : ['DocumentIsNotClosed', `Only closed documents can be cancelled; document ${documentId} is a draft`];
    return failure('ValidationError', 'ValidationError', [
      { Type: type, Field: 'DocumentId', ElementNumber: 0, Value: String(documentId), Detail: detail },
    ]);
  }
  doc.status = 'canceled';
  doc.canceledAt = store.now();
  doc.updatedAt = doc.canceledAt;
  store.changed();
  return success(null);
}
