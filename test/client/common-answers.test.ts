import { z } from 'zod';
import { createUndiciTransport } from '../../client/undici-transport';
import { commonCreateDocumentResult, commonDocumentGetOut, commonEnvelope } from '../../client/schemas/common-answers';
import { CreateDocumentResultSchema, DocumentGetOutSchema, EnvelopeSchema, SHARED_FIELD_TYPES } from '../../client/schemas/responses';
import { FAIL, looseFromShape } from '../../client/schemas/hand-proof';
import type { Transport } from '../../client/transport';
import type { RunningSandbox } from '../../sandbox/server';
import { invoiceRequest, waybillRequest } from './requests';
import { AT_ACCOUNT, passFinalizeDelay, restClient, startTestSandbox, uniqueExternalId } from './sandbox-harness';
import { fieldPaths, withField } from '../support/field-paths';

/**
 * The hand proofs of the answers read on every order (client/schemas/common-answers.ts) give zod's
 * answer: the same object and the same JSON text, on the sandbox's own answers (which they must
 * read, not hand to zod) and on every field of those answers made odd (where they may only agree
 * with zod or step aside).
 */

let sandbox: RunningSandbox;
const answers: { path: string; body: string }[] = [];

const recording: Transport = (() => {
  const transport = createUndiciTransport();
  return async (request) => {
    const response = await transport(request);
    answers.push({ path: `${request.method} ${new URL(request.url).pathname}`, body: response.body });
    return response;
  };
})();

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const client = restClient(sandbox, undefined, { transport: recording });
  const atClient = restClient(sandbox, AT_ACCOUNT, { transport: recording });
  const invoice = await client.createDocument(invoiceRequest({ ExternalId: uniqueExternalId() }));
  const draft = await client.createDocument({ ...invoiceRequest({ ExternalId: uniqueExternalId() }), IsToClose: false });
  const foreign = await client.createDocument(invoiceRequest({ Type: 'I', Currency: 'USD', EuroRate: '0.9259', Retention: '11.5', ExternalId: uniqueExternalId() }));
  const exempt = invoiceRequest({ ExternalId: uniqueExternalId(), TaxExemptionReasonCode: 'M07' });
  exempt.Document.Lines[0] = { ...exempt.Document.Lines[0], TaxValue: 0 };
  const exemptDocument = await client.createDocument(exempt);
  const credit = await client.createDocument(invoiceRequest({ Type: 'C', DocumentReference: 'FR A/1', ExternalId: uniqueExternalId() }));
  const waybill = await atClient.createWaybill(waybillRequest());
  await client.getDocument(invoice.documentId).catch(() => undefined); // before the delay: an error envelope
  await client.createDocument(invoiceRequest({ ExternalId: 'x'.repeat(500) })).catch(() => undefined); // validation errors
  await passFinalizeDelay(sandbox);
  for (const id of [invoice, draft, foreign, exemptDocument, credit].map((created) => created.documentId)) {
    await client.getDocument(id);
    await client.getDocumentProperty(id);
  }
  await atClient.getDocument(waybill.documentId);
});
afterAll(() => sandbox.close());

function agreesWithZod<S extends z.ZodType>(schema: S, common: (input: unknown) => unknown, input: unknown): 'hand' | 'zod' {
  const proven = common(input);
  if (proven === undefined) return 'zod';
  const parsed = schema.safeParse(input);
  expect(parsed.success).toBe(true);
  expect(proven).toStrictEqual(parsed.data);
  expect(JSON.stringify(proven)).toBe(JSON.stringify(parsed.data));
  return 'hand';
}

const CASES = [
  // The envelope's Object is z.unknown(): its inside is the other cases' to vary.
  { name: 'the envelope', schema: EnvelopeSchema, common: commonEnvelope, of: (answer: unknown) => answer, paths: /./, varied: (path: (string | number)[]) => path[0] !== 'Object' || path.length === 1 },
  { name: "Create Document's Object", schema: CreateDocumentResultSchema, common: commonCreateDocumentResult, of: objectOf, paths: /^POST \/api\/v1\.1\/document$/, varied: () => true },
  { name: "Get Document's Object", schema: DocumentGetOutSchema, common: commonDocumentGetOut, of: objectOf, paths: /^GET \/api\/v1\.1\/document(\/property)?$/, varied: () => true },
];

function objectOf(answer: unknown): unknown {
  return (answer as { Object?: unknown }).Object;
}

function successes(paths: RegExp): unknown[] {
  return answers.filter((a) => paths.test(a.path)).map((a) => JSON.parse(a.body) as unknown).filter((a) => (a as { Type?: unknown }).Type === 0);
}

/** Every value a field could hold instead of the service's: other kinds, null, and texts zod reads in its own way. */
const ODD_VALUES: unknown[] = [undefined, null, '', 'text', ' 12,50 ', '1.234,50', '12,5', '-3', 0, -0, 1.5, -7, 2 ** 53, NaN, Infinity, true, false, {}, [], [{}], { Value: 1 }];
const ABSENT = Symbol('absent');

/** The answer with the value at `path` replaced (or removed), a deep copy. */
/** One answer of each shape (the same fields of the same kinds, a list by its first entry): the odd variants of the others would repeat them. */
function distinctShapes(samples: unknown[]): unknown[] {
  const shapes = new Map<string, unknown>();
  for (const sample of samples) shapes.set(JSON.stringify(sample, (_key, value: unknown) => (value === null || typeof value !== 'object' ? typeof value : Array.isArray(value) ? value.slice(0, 1) : value)), sample);
  return [...shapes.values()];
}

describe.each(CASES)('$name', ({ schema, common, of, paths: callPaths, varied }) => {
  it("reads every sandbox answer by hand, as zod does", () => {
    const read = (callPaths.source === '.' ? answers.map((a) => JSON.parse(a.body) as unknown) : successes(callPaths)).map(of);
    expect(read.length).toBeGreaterThan(0);
    expect(read.map((answer) => agreesWithZod(schema, common, answer))).toEqual(read.map(() => 'hand'));
  });

  it('agrees with zod or leaves it to zod when any field is odd or absent', () => {
    const samples = distinctShapes((callPaths.source === '.' ? answers.map((a) => JSON.parse(a.body) as unknown) : successes(callPaths)).map(of));
    let variants = 0;
    for (const sample of samples) {
      for (const path of fieldPaths(sample).filter(varied)) {
        for (const value of [...ODD_VALUES, ABSENT]) {
          agreesWithZod(schema, common, withField(sample, path, value, value === ABSENT));
          variants += 1;
        }
      }
    }
    expect(variants).toBeGreaterThan(20);
  });

  it.each([[null], [undefined], ['text'], [[]], [42]])('leaves %p to zod', (input) => {
    expect(common(input)).toBeUndefined();
  });
});

describe('the envelope', () => {
  it.each([
    [{ Type: 0, IsSuccess: false }],
    [{ Type: 1, IsError: false }],
    [{ Type: 0, IsSuccess: true, IsError: true }],
  ])('leaves a disagreement of Type and IsSuccess/IsError to zod, which words it: %j', (answer) => {
    expect(commonEnvelope(answer)).toBeUndefined();
    expect(EnvelopeSchema.safeParse(answer).success).toBe(false);
  });
});

describe('a hand proof read from a schema\'s shape (looseFromShape)', () => {
  const text = (value: unknown): unknown => (typeof value === 'string' ? value : FAIL);
  const shape = z.looseObject({ Name: SHARED_FIELD_TYPES.optionalText, Count: z.number() }).shape;

  it('reads the fields the schema names, in its order, with the reading its field type or `given` has', () => {
    const read = looseFromShape(shape, new Map([[SHARED_FIELD_TYPES.optionalText, text]]), { Count: (value) => value });
    expect(JSON.stringify(read({ Count: 2, Extra: true, Name: 'a' }))).toBe('{"Name":"a","Count":2,"Extra":true}');
    expect(read({ Name: 3, Count: 2 })).toBe(FAIL);
  });

  it('stops the module loading on a field whose type no reading covers, instead of proving it wrongly', () => {
    expect(() => looseFromShape(shape, new Map([[SHARED_FIELD_TYPES.optionalText, text]]))).toThrow('no reading for the field Count');
  });
});
