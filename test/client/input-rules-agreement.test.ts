import {
  CreateDocumentRequestSchema,
  CreateWaybillRequestSchema,
  LocalValidationError,
  PartnerInformationSchema,
  validateInput,
} from '../../client';
import { DOCUMENT_CASES, InputCase, PARTNER_CASES, WAYBILL_CASES } from './input-rule-cases';

/**
 * The client's side of the shared input table: every case the sandbox accepts passes local
 * validation, every case it refuses fails here at the same field (test/sandbox/input-rules-agreement.test.ts
 * runs the same table against the sandbox over HTTP). `accountRule` cases pass here: the account's
 * configuration (its VAT rates) is the service's to check.
 */

function refusedPaths(schema: Parameters<typeof validateInput>[0], body: unknown): string[] {
  try {
    validateInput(schema, body);
    return [];
  } catch (error) {
    if (error instanceof LocalValidationError) return error.issues.map((issue) => issue.path);
    throw error;
  }
}

function expectCase<B>(schema: Parameters<typeof validateInput>[0], c: InputCase<B>): void {
  const paths = refusedPaths(schema, c.body());
  if (c.refused) expect(paths).toContain(c.refused.path);
  else expect(paths).toEqual([]);
}

describe('the client applies the shared input rules (documents)', () => {
  it.each(DOCUMENT_CASES.map((c) => [c.rule, c] as const))('%s', (_rule, c) => expectCase(CreateDocumentRequestSchema, c));
});

describe('the client applies the shared input rules (waybills)', () => {
  it.each(WAYBILL_CASES.map((c) => [c.rule, c] as const))('%s', (_rule, c) => expectCase(CreateWaybillRequestSchema, c));
});

describe('the client applies the shared input rules (AddPartner)', () => {
  it.each(PARTNER_CASES.map((c) => [c.rule, c] as const))('%s', (_rule, c) => expectCase(PartnerInformationSchema, c));
});
