import { RunningSandbox, startTestSandbox, TEST_ACCOUNT } from '../support/sandbox';
import { waybillBody } from './bodies';
import { admin, advanceClock, api, objectOf } from './http';

/** Create Waybill: W and Y, their own numbering, load rules, and the AT code when communication is on. */

interface WaybillCreated {
  DocumentId: number;
  DocumentNumber: string | null;
  ATCode?: string;
  ErrorMessage: string | null;
}

describe.each([
  ['without tax-authority communication', false],
  ['with tax-authority communication', true],
])('waybills %s', (_name, atCommunication) => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ accounts: [{ ...TEST_ACCOUNT, atCommunication }] });
  });
  afterAll(() => sandbox.close());

  it.each([
    ['W', 'GT A/1'],
    ['Y', 'GR A/1'],
  ])('a closed %s gets number %s in the create answer', async (type, number) => {
    const result = await api(sandbox, 'POST', '/document/waybill', { body: waybillBody({ Type: type }) });
    const created = objectOf<WaybillCreated>(result);
    expect(created.DocumentNumber).toBe(number);
    expect(created.ATCode === undefined).toBe(!atCommunication);
  });

  it('shows the transport fields and AT code in Get Document', async () => {
    const body = waybillBody({ Date: '2026-03-05', LoadDateTime: '2026-03-05T08:00:00', VehicleLicence: '12-AB-34' });
    const created = objectOf<WaybillCreated>(await api(sandbox, 'POST', '/document/waybill', { body }));
    await advanceClock(sandbox, 60_000);
    const got = objectOf<{ DocumentNumber: string; Details: { Document: Record<string, unknown> } }>(
      await api(sandbox, 'GET', `/document?documentId=${created.DocumentId}`),
    );
    expect(got.DocumentNumber).toBe('GT A/2');
    expect(got.Details.Document).toMatchObject({
      Type: 'W',
      LoadDateTime: '2026-03-05T08:00:00',
      LoadAddress: { AddressDetail: 'Rua Augusta 100', City: 'Lisboa', PostalCode: '1100-053', CountryCode: 'PT' },
      DestinationAddress: { City: 'Porto', PostalCode: '4000-447' },
      VehicleLicence: '12-AB-34',
      ATCode: atCommunication ? created.ATCode : null,
    });
    if (atCommunication) expect(created.ATCode).toMatch(/^AT\d{6}[0-9A-F]{8}$/);
  });

  it('a draft waybill has no number and no AT code until it closes', async () => {
    const draft = objectOf<WaybillCreated>(await api(sandbox, 'POST', '/document/waybill', { body: waybillBody({ Date: '2026-03-06', LoadDateTime: '2026-03-06T08:00:00' }, { IsToClose: false }) }));
    expect(draft).toMatchObject({ DocumentNumber: null });
    expect(draft.ATCode).toBeUndefined();
    const closed = objectOf<WaybillCreated>(
      await api(sandbox, 'POST', '/document/waybill', { body: waybillBody({ Id: draft.DocumentId, Date: '2026-03-06', LoadDateTime: '2026-03-06T08:00:00' }) }),
    );
    expect(closed.DocumentId).toBe(draft.DocumentId);
    expect(closed.DocumentNumber).toBe('GT A/3');
  });

  it('a waybill id is not a document id for Create Document', async () => {
    const waybill = objectOf<WaybillCreated>(await api(sandbox, 'POST', '/document/waybill', { body: waybillBody({ Date: '2026-03-07', LoadDateTime: '2026-03-07T08:00:00' }, { IsToClose: false }) }));
    const result = await api(sandbox, 'POST', '/document', {
      body: { IsToClose: true, Client: waybillBody().Client, Document: { Id: waybill.DocumentId, Type: 'T', Date: '2026-03-07', DueDate: '2026-03-08', Lines: (waybillBody().Waybill as { Lines: unknown[] }).Lines } },
    });
    expect(result.envelope.ErrorValue?.Value).toBe(6);
  });

  it('date ordering and duplicates apply to waybills too', async () => {
    const early = await api(sandbox, 'POST', '/document/waybill', { body: waybillBody({ Date: '2026-03-01', LoadDateTime: '2026-03-01T08:00:00' }) });
    expect(early.envelope.ValidationErrors?.[0].Type).toBe('MustBePosteriorToMostCurrentClosedDocument');
    await api(sandbox, 'POST', '/document/waybill', { body: waybillBody({ Date: '2026-03-08', LoadDateTime: '2026-03-08T08:00:00', ExternalId: 'ship-1' }) });
    const again = await api(sandbox, 'POST', '/document/waybill', { body: waybillBody({ Date: '2026-03-08', LoadDateTime: '2026-03-08T08:00:00', ExternalId: 'ship-1' }) });
    expect(again.envelope.ValidationErrors?.[0]).toMatchObject({ Type: 'DocumentIsADuplicate', Field: 'DocumentDetailExternalId' });
    const docs = await admin<{ documents: unknown[] }>(sandbox, 'GET', '/documents');
    expect(docs.status).toBe(200);
  });
});
