import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startTestSandbox } from '../support/sandbox';
import { documentBody } from './bodies';
import { admin, advanceClock, api, objectOf } from './http';

/** persistPath: the state survives a restart. */

describe('persistence across restarts', () => {
  it('keeps documents, numbering, partners, payments, outbox and link signing', async () => {
    const persistPath = join(mkdtempSync(join(tmpdir(), 'sandbox-state-')), 'state.json');
    const first = await startTestSandbox({ persistPath });
    const closed = objectOf<{ DocumentId: number }>(await api(first, 'POST', '/document', { body: documentBody({ Type: 'I' }, { SendTo: 'a@example.com' }) })).DocumentId;
    const draft = objectOf<{ DocumentId: number }>(await api(first, 'POST', '/document', { body: documentBody({ ExternalId: 'keep-me' }, { IsToClose: false }) })).DocumentId;
    await api(first, 'POST', '/partner', { body: { CompanyTaxId: '508000009' } });
    await admin(first, 'POST', '/payments', { documentId: closed, amount: '5' });
    await advanceClock(first, 60_000);
    const link = objectOf<{ DownloadUrl: string }>(await api(first, 'GET', `/document?documentId=${closed}`)).DownloadUrl;
    await first.close();
    expect(JSON.parse(readFileSync(persistPath, 'utf8'))).toMatchObject({ version: 1, nextDocumentId: 3 });

    const second = await startTestSandbox({ persistPath });
    try {
      const got = objectOf<{ DocumentNumber: string; PaymentStatus: string; UnpaidAmount: string }>(
        await api(second, 'GET', `/document/property?documentId=${closed}`),
      );
      expect(got).toMatchObject({ DocumentNumber: 'FT A/1', PaymentStatus: 'Incomplete', UnpaidAmount: '19,60' });
      const duplicate = await api(second, 'POST', '/document', { body: documentBody({ ExternalId: 'keep-me' }) });
      expect(duplicate.envelope.ValidationErrors?.[0].Type).toBe('DocumentIsADuplicate');
      const closedDraft = await api(second, 'POST', '/document', { body: documentBody({ Id: draft, ExternalId: 'keep-me' }) });
      expect(closedDraft.envelope.Type).toBe(0);
      const next = objectOf<{ DocumentId: number }>(await api(second, 'POST', '/document', { body: documentBody({ Type: 'I' }) })).DocumentId;
      expect(next).toBe(3);
      await advanceClock(second, 60_000);
      expect(objectOf<{ DocumentNumber: string }>(await api(second, 'GET', `/document?documentId=${next}`)).DocumentNumber).toBe('FT A/2');
      expect((await api(second, 'GET', '/partner/tokens?taxId=508000009')).envelope.Type).toBe(0);
      expect((await admin<{ emails: unknown[] }>(second, 'GET', '/outbox')).body.emails).toHaveLength(1);
      // Links are signed with the persisted secret, so an old link still opens on the new port.
      const pdf = await request(link.replace(/^http:\/\/[^/]+/, second.origin));
      expect(pdf.statusCode).toBe(200);
      await pdf.body.arrayBuffer();
    } finally {
      await second.close();
    }
  });

  it('refuses to start from a state file that is not valid', async () => {
    const persistPath = join(mkdtempSync(join(tmpdir(), 'sandbox-state-')), 'state.json');
    writeFileSync(persistPath, JSON.stringify({ version: 1, documents: 'nope' }));
    await expect(startTestSandbox({ persistPath })).rejects.toThrow(/not valid/);
  });
});
