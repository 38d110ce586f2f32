import { request } from 'undici';
import { RunningSandbox, startTestSandbox, TEST_ACCOUNT } from '../support/sandbox';
import { documentBody } from './bodies';
import { admin, api, WireEnvelope } from './http';

/** The common envelope on every answer, authentication, HTTP status codes. */

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const ENDPOINTS = [
  ['POST', '/document'],
  ['GET', '/document?documentId=1'],
  ['PATCH', '/document?documentId=1'],
  ['GET', '/document/property?documentId=1'],
  ['POST', '/document/waybill'],
  ['POST', '/partner'],
  ['GET', '/partner/tokens?taxId=508000009'],
  ['GET', '/client?countryCode=PT&taxId=505123452'],
  ['GET', '/taxIdValidation?countryCode=PT&taxId=505123452'],
] as const;

describe('authentication: email and token headers', () => {
  it.each(ENDPOINTS)('%s %s without credentials is 401 AuthenticationError', async (method, path) => {
    const result = await api(sandbox, method, path, { credentials: null, body: {} });
    expect(result.status).toBe(401);
    expect(result.envelope).toMatchObject({ Type: 1, IsError: true, IsSuccess: false, Object: null, ErrorValue: { Value: 1, Name: 'AuthenticationError' } });
  });

  it.each([
    ['a wrong token', { email: TEST_ACCOUNT.email, token: 'wrong' }],
    ['an unknown e-mail', { email: 'nobody@example.com', token: TEST_ACCOUNT.token }],
    ['another account\'s token', { email: TEST_ACCOUNT.email, token: 'other-token' }],
    ['an empty token', { email: TEST_ACCOUNT.email, token: '' }],
  ])('%s is 401', async (_name, credentials) => {
    expect((await api(sandbox, 'GET', '/taxIdValidation?countryCode=PT&taxId=505123452', { credentials })).status).toBe(401);
  });

  it.each([
    ['lower case', 'email', 'token'],
    ['capitalised', 'Email', 'Token'],
    ['upper case', 'EMAIL', 'TOKEN'],
  ])('header names are case-insensitive (%s)', async (_name, emailHeader, tokenHeader) => {
    const response = await request(`${sandbox.baseUrl}/taxIdValidation?countryCode=PT&taxId=505123452`, {
      headers: { [emailHeader]: TEST_ACCOUNT.email.toUpperCase(), [tokenHeader]: TEST_ACCOUNT.token },
    });
    expect(response.statusCode).toBe(200);
    await response.body.text();
  });
});

describe('the common envelope', () => {
  it('has every field on success and a unique RequestId per answer', async () => {
    const first = await api(sandbox, 'POST', '/document', { body: documentBody() });
    const second = await api(sandbox, 'GET', '/taxIdValidation?countryCode=PT&taxId=505123452');
    for (const result of [first, second]) {
      expect(Object.keys(result.envelope).sort()).toEqual(
        ['ErrorHumanReadable', 'ErrorValue', 'IsError', 'IsSuccess', 'Object', 'RequestId', 'Type', 'ValidationErrors'].sort(),
      );
      expect(result.envelope).toMatchObject({ Type: 0, IsSuccess: true, IsError: false, ErrorValue: null, ValidationErrors: null });
    }
    expect(first.envelope.RequestId).not.toBe(second.envelope.RequestId);
  });

  it.each([
    ['a body that is not JSON', '{"IsToClose": tru', 'InvalidJson'],
    ['a body that is not an object', '[1,2]', 'InvalidFormat'],
    ['an empty body', '', 'InvalidFormat'],
  ])('%s is 400 with a validation error', async (_name, rawBody, type) => {
    const result = await api(sandbox, 'POST', '/document', { rawBody });
    expect(result.status).toBe(400);
    // Not JSON at all: 2 ValidationError; JSON that is not a create body: a failed create, 14 SaveFailed.
    expect(result.envelope.ErrorValue).toEqual(type === 'InvalidJson' ? { Value: 2, Name: 'ValidationError' } : { Value: 14, Name: 'SaveFailed' });
    expect(result.envelope.ValidationErrors?.[0].Type).toBe(type);
  });
});

describe('REST bodies are JSON by their content type', () => {
  beforeEach(async () => {
    await admin(sandbox, 'POST', '/reset');
  });
  const body = JSON.stringify({ CompanyTaxId: '503000000' });
  it.each([
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['XML', 'application/xml'],
    ['no content type', ''],
  ])('%s is HTTP 415 in the envelope, nothing done', async (_name, contentType) => {
    const headers: Record<string, string> = contentType === '' ? {} : { 'content-type': contentType };
    const response = await request(`${sandbox.baseUrl}/partner`, { method: 'POST', headers: { ...headers, email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token }, body });
    expect(response.statusCode).toBe(415);
    const envelope = (await response.body.json()) as WireEnvelope;
    expect(envelope).toMatchObject({ Type: 1, IsError: true, Object: null, ErrorValue: { Value: 2, Name: 'ValidationError' } });
    expect(envelope.ValidationErrors).toEqual([expect.objectContaining({ Type: 'UnsupportedMediaType', Field: 'Body' })]);
    const { body: partners } = await admin<{ partnerships: unknown[] }>(sandbox, 'GET', '/partners');
    expect(partners.partnerships).toHaveLength(0);
  });

  it.each(['application/json; charset=utf-8', 'text/json', 'application/problem+json'])('%s is read as JSON', async (contentType) => {
    const result = await api(sandbox, 'POST', '/partner', { rawBody: body, headers: { 'content-type': contentType } });
    expect(result.status).toBe(200);
  });

  it('a bodiless GET or PATCH needs no content type', async () => {
    const response = await request(`${sandbox.baseUrl}/taxIdValidation?countryCode=PT&taxId=505123452`, { headers: { email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token } });
    expect(response.statusCode).toBe(200);
  });
});

describe('unknown routes are 404 with an envelope', () => {
  it.each([
    ['GET', '/api/v1.1/nothing'],
    ['DELETE', '/api/v1.1/document?documentId=1'],
    ['GET', '/api/v2/document'],
    ['GET', '/'],
  ])('%s %s', async (method, path) => {
    const response = await request(`${sandbox.origin}${path}`, { method, headers: { email: TEST_ACCOUNT.email, token: TEST_ACCOUNT.token } });
    expect(response.statusCode).toBe(404);
    expect(await response.body.json()).toMatchObject({ Type: 1, IsError: true, ErrorValue: { Value: 6, Name: 'ElementDoesNotExist' } });
  });
});
