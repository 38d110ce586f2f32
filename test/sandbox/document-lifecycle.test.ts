import { OTHER_ACCOUNT, RunningSandbox, startTestSandbox } from '../support/sandbox';
import { client, documentBody, line } from './bodies';
import { admin, advanceClock, api, objectOf } from './http';

/** The spec's document state table, numbering, date ordering and duplicate prevention. */

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await admin(sandbox, 'POST', '/reset');
});

const OTHER = { email: OTHER_ACCOUNT.email, token: OTHER_ACCOUNT.token };

interface Created {
  DocumentId: number;
  ErrorMessage: string | null;
}
interface Got {
  DocumentNumber: string | null;
  DownloadUrl: string | null;
  Details: { Document: { DocumentStatusId: string; DocumentStatus: string; Description: string | null; Lines: unknown[] } };
}

async function create(body: Record<string, unknown>): Promise<number> {
  return objectOf<Created>(await api(sandbox, 'POST', '/document', { body })).DocumentId;
}

async function finalizedGet(id: number): Promise<Got> {
  await advanceClock(sandbox, 60_000);
  return objectOf<Got>(await api(sandbox, 'GET', `/document?documentId=${id}`));
}

describe('state table: create', () => {
  it.each([
    ['IsToClose false creates a draft with no number', false, 'D', 'Draft', null],
    ['IsToClose true creates a closed document with a number', true, 'C', 'Closed', 'FR A/1'],
  ])('%s', async (_rule, isToClose, statusId, statusText, number) => {
    const created = await api(sandbox, 'POST', '/document', { body: documentBody({}, { IsToClose: isToClose }) });
    expect(created.status).toBe(200);
    expect(created.envelope).toMatchObject({ Type: 0, IsSuccess: true, IsError: false, ErrorValue: null });
    const got = await finalizedGet(objectOf<Created>(created).DocumentId);
    expect(got.Details.Document).toMatchObject({ DocumentStatusId: statusId, DocumentStatus: statusText });
    expect(got.DocumentNumber).toBe(number);
    expect(got.DownloadUrl === null).toBe(number === null);
  });
});

describe('state table: a draft updated or closed through Document.Id', () => {
  it('updates the draft and keeps it a draft', async () => {
    const id = await create(documentBody({}, { IsToClose: false }));
    const updated = await api(sandbox, 'POST', '/document', {
      body: documentBody({ Id: id, Description: 'Updated draft', Lines: [line(), line({ Code: 'SKU-2' })] }, { IsToClose: false }),
    });
    expect(objectOf<Created>(updated).DocumentId).toBe(id);
    const got = await finalizedGet(id);
    expect(got.Details.Document).toMatchObject({ DocumentStatusId: 'D', Description: 'Updated draft' });
    expect(got.Details.Document.Lines).toHaveLength(2);
  });

  it('closes the draft, which gets its number then', async () => {
    const id = await create(documentBody({}, { IsToClose: false }));
    const closed = await api(sandbox, 'POST', '/document', { body: documentBody({ Id: id }) });
    expect(objectOf<Created>(closed).DocumentId).toBe(id);
    const got = await finalizedGet(id);
    expect(got.Details.Document.DocumentStatusId).toBe('C');
    expect(got.DocumentNumber).toBe('FR A/1');
  });

  it.each([
    ['a closed document', 'closed'],
    ['a cancelled document', 'canceled'],
  ])('refuses to change %s (DocumentIsClosed)', async (_name, state) => {
    const id = await create(documentBody());
    if (state === 'canceled') await api(sandbox, 'PATCH', `/document?documentId=${id}`);
    const result = await api(sandbox, 'POST', '/document', { body: documentBody({ Id: id, Description: 'Changed' }) });
    expect(result.status).toBe(400);
    expect(result.envelope.ErrorValue).toEqual({ Value: 14, Name: 'SaveFailed' });
    expect(result.envelope.ValidationErrors).toContainEqual(expect.objectContaining({ Type: 'DocumentIsClosed', Field: 'DocumentDetailId' }));
  });

  it.each([
    ['an unknown id', async () => 9999],
    ['a draft of another account', async () => objectOf<Created>(await api(sandbox, 'POST', '/document', { body: documentBody({}, { IsToClose: false }), credentials: OTHER })).DocumentId],
  ])('answers ElementDoesNotExist (6) for %s', async (_name, idOf) => {
    const id = await idOf();
    const result = await api(sandbox, 'POST', '/document', { body: documentBody({ Id: id }) });
    expect(result.status).toBe(404);
    expect(result.envelope.ErrorValue).toEqual({ Value: 6, Name: 'ElementDoesNotExist' });
  });
});

describe('state table: cancel', () => {
  it('cancels a closed document: status A / Cancelled, Object null', async () => {
    const id = await create(documentBody());
    const result = await api(sandbox, 'PATCH', `/document?documentId=${id}`);
    expect(result.status).toBe(200);
    expect(result.envelope).toMatchObject({ Type: 0, Object: null });
    const got = await finalizedGet(id);
    expect(got.Details.Document).toMatchObject({ DocumentStatusId: 'A', DocumentStatus: 'Cancelled' });
    expect(got.DocumentNumber).toBe('FR A/1');
  });

  it.each([
    ['a draft', false, 'DocumentIsNotClosed'],
    ['an already cancelled document', true, 'DocumentIsAlreadyCancelled'],
  ])('refuses to cancel %s', async (_name, closeFirst, type) => {
    const id = await create(documentBody({}, { IsToClose: closeFirst }));
    if (closeFirst) await api(sandbox, 'PATCH', `/document?documentId=${id}`);
    const result = await api(sandbox, 'PATCH', `/document?documentId=${id}`);
    expect(result.status).toBe(400);
    expect(result.envelope.ValidationErrors).toEqual([expect.objectContaining({ Type: type, Field: 'DocumentId', Value: String(id) })]);
  });
});

describe('unknown documents: ElementDoesNotExist (6), also for ids of another account', () => {
  it.each([
    ['GET', '/document'],
    ['GET', '/document/property'],
    ['PATCH', '/document'],
  ] as const)('%s %s', async (method, path) => {
    const foreign = objectOf<Created>(await api(sandbox, 'POST', '/document', { body: documentBody(), credentials: OTHER })).DocumentId;
    for (const id of [foreign, 424242]) {
      const result = await api(sandbox, method, `${path}?documentId=${id}`);
      expect(result.status).toBe(404);
      expect(result.envelope).toMatchObject({ Type: 1, ErrorValue: { Value: 6, Name: 'ElementDoesNotExist' }, Object: null });
      expect(result.envelope.ValidationErrors?.[0]).toMatchObject({ Field: 'DocumentId', Value: String(id) });
    }
  });

  it.each([
    ['missing', '', 'Required'],
    ['not a number', '?documentId=abc', 'InvalidFormat'],
  ])('documentId %s is a validation error', async (_name, query, type) => {
    const result = await api(sandbox, 'GET', `/document${query}`);
    expect(result.status).toBe(400);
    expect(result.envelope.ValidationErrors?.[0]).toMatchObject({ Type: type, Field: 'DocumentId' });
  });
});

describe('numbering: per account, type and series, in closing order', () => {
  it('numbers each series on its own, with the type prefix', async () => {
    const plan: [string, string | undefined, string][] = [
      ['T', undefined, 'FR A/1'],
      ['T', undefined, 'FR A/2'],
      ['I', undefined, 'FT A/1'],
      ['T', 'LOJA', 'FR LOJA/1'],
      ['S', undefined, 'FS A/1'],
      ['C', undefined, 'NC A/1'],
      ['D', undefined, 'ND A/1'],
      ['I', undefined, 'FT A/2'],
      ['T', 'LOJA', 'FR LOJA/2'],
    ];
    const ids: number[] = [];
    for (const [type, serie, _number] of plan) {
      ids.push(await create(documentBody({ Type: type, Serie: serie, DocumentReference: 'FT A/1' })));
    }
    const draft = await create(documentBody({}, { IsToClose: false }));
    await advanceClock(sandbox, 60_000);
    for (const [i, [, , number]] of plan.entries()) {
      const got = objectOf<Got>(await api(sandbox, 'GET', `/document?documentId=${ids[i]}`));
      expect(got.DocumentNumber).toBe(number);
    }
    expect(objectOf<Got>(await api(sandbox, 'GET', `/document?documentId=${draft}`)).DocumentNumber).toBeNull();
  });

  it('numbers another account from 1', async () => {
    await create(documentBody());
    const other = objectOf<Created>(await api(sandbox, 'POST', '/document', { body: documentBody(), credentials: OTHER })).DocumentId;
    await advanceClock(sandbox, 60_000);
    expect(objectOf<Got>(await api(sandbox, 'GET', `/document?documentId=${other}`, { credentials: OTHER })).DocumentNumber).toBe('FR A/1');
  });
});

describe('date ordering: Date not before the latest closed document of the series', () => {
  it.each([
    ['an earlier date in the same series is refused', 'T', 'A', '2026-03-01', false],
    ['the same date is allowed', 'T', 'A', '2026-03-02', true],
    ['a later date is allowed', 'T', 'A', '2026-03-05', true],
    ['an earlier date in another series is allowed', 'T', 'B', '2026-03-01', true],
    ['an earlier date of another type is allowed', 'I', 'A', '2026-03-01', true],
  ])('%s', async (_rule, type, serie, date, accepted) => {
    await create(documentBody({ Date: '2026-03-02', DueDate: '2026-03-10', Serie: 'A' }));
    const result = await api(sandbox, 'POST', '/document', {
      body: documentBody({ Type: type, Serie: serie, Date: date, DueDate: '2026-03-20' }),
    });
    expect(result.envelope.Type).toBe(accepted ? 0 : 1);
    if (!accepted) {
      expect(result.status).toBe(400);
      expect(result.envelope.ValidationErrors).toEqual([
        expect.objectContaining({ Type: 'MustBePosteriorToMostCurrentClosedDocument', Field: 'DocumentDetailDate' }),
      ]);
    }
  });

  it('does not apply to drafts, only when they close', async () => {
    await create(documentBody({ Date: '2026-03-02' }));
    const draft = await api(sandbox, 'POST', '/document', { body: documentBody({ Date: '2026-02-01', DueDate: '2026-02-02' }, { IsToClose: false }) });
    expect(draft.envelope.Type).toBe(0);
    const closing = await api(sandbox, 'POST', '/document', {
      body: documentBody({ Id: objectOf<Created>(draft).DocumentId, Date: '2026-02-01', DueDate: '2026-02-02' }),
    });
    expect(closing.envelope.ValidationErrors?.[0].Type).toBe('MustBePosteriorToMostCurrentClosedDocument');
  });
});

describe('duplicates: the same ExternalId for the same client', () => {
  const dup = { Type: 'DocumentIsADuplicate', Field: 'DocumentDetailExternalId', ElementNumber: 0, Detail: 'Duplicate Document' };

  it.each([
    ['a closed document, same client', true, true, {}, {}],
    ['a draft, same client', true, false, {}, {}],
    ['a document of another type, same client', true, true, {}, { Type: 'I' }],
    ['a document for another client NIF', false, true, { NIF: '505123452' }, {}],
  ])('after %s, a repeat is a duplicate: %s', async (_name, isDuplicate, firstClosed, clientOverride, docOverride) => {
    await create(documentBody({ ExternalId: 'order-1001' }, { IsToClose: firstClosed }));
    const result = await api(sandbox, 'POST', '/document', {
      body: documentBody({ ExternalId: 'order-1001', ...docOverride }, { Client: client(clientOverride) }),
    });
    if (isDuplicate) {
      expect(result.status).toBe(400);
      // MagniFinance's docs show a duplicate as 14 SaveFailed, ErrorHumanReadable "ValidationError".
      expect(result.envelope).toMatchObject({ Type: 1, ErrorValue: { Value: 14, Name: 'SaveFailed' }, ErrorHumanReadable: 'ValidationError' });
      expect(result.envelope.ValidationErrors).toEqual([dup]);
    } else {
      expect(result.envelope.Type).toBe(0);
    }
  });

  it('is per account: another account may use the same ExternalId', async () => {
    await create(documentBody({ ExternalId: 'order-7' }));
    const other = await api(sandbox, 'POST', '/document', { body: documentBody({ ExternalId: 'order-7' }), credentials: OTHER });
    expect(other.envelope.Type).toBe(0);
  });

  it('lets a draft keep its own ExternalId when it is updated or closed', async () => {
    const id = await create(documentBody({ ExternalId: 'order-8' }, { IsToClose: false }));
    const closed = await api(sandbox, 'POST', '/document', { body: documentBody({ Id: id, ExternalId: 'order-8' }) });
    expect(closed.envelope.Type).toBe(0);
  });
});
