import { writeRequestJson } from '../../client';
import { DOCUMENT_CASES, InputCase, PARTNER_CASES, WAYBILL_CASES } from '../client/input-rule-cases';
import { RunningSandbox, startTestSandbox } from '../support/sandbox';
import { api } from './http';

/**
 * The sandbox's side of the shared input table (test/client/input-rule-cases.ts): the same cases,
 * sent raw over HTTP, are accepted where the client accepts them and refused at the same field;
 * `accountRule` cases (the account's VAT rates) are refused by the service alone.
 */

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

async function expectCase<B>(path: string, c: InputCase<B>): Promise<void> {
  // writeRequestJson: decimals given as text travel as JSON numbers, as the client sends them.
  const result = await api(sandbox, 'POST', path, { rawBody: writeRequestJson(c.body()) });
  const refused = c.refused ?? c.accountRule;
  if (!refused) {
    expect(result.envelope.ValidationErrors).toBeNull();
    expect(result.status).toBe(200);
    return;
  }
  expect(result.status).toBe(400);
  const fields = (result.envelope.ValidationErrors ?? []).map((v) => `${v.Field}@${v.ElementNumber}`);
  expect(fields).toContain(`${refused.field}@${refused.element ?? 0}`);
}

describe('the sandbox applies the shared input rules (documents)', () => {
  it.each(DOCUMENT_CASES.map((c) => [c.rule, c] as const))('%s', (_rule, c) => expectCase('/document', c));
});

describe('the sandbox applies the shared input rules (waybills)', () => {
  it.each(WAYBILL_CASES.map((c) => [c.rule, c] as const))('%s', (_rule, c) => expectCase('/document/waybill', c));
});

describe('the sandbox applies the shared input rules (AddPartner)', () => {
  it.each(PARTNER_CASES.map((c) => [c.rule, c] as const))('%s', (_rule, c) => expectCase('/partner', c));
});
