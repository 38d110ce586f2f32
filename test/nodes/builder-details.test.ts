/**
 * The small things an n8n builder trips over: a JSON line's key named when it is missing or
 * misnamed, a wrong partner password called a password, the credential test on an empty Base URL,
 * the document's currency in the outputs, tax rates in numeric order, one control for every
 * country code.
 */
import type { IDataObject, INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { DEFAULT_BASE_URL } from '../../client/rest-client';
import { SERVICE_BASE_URL } from '../../credentials/MagniFinanceApi.credentials';
import { MagniFinance } from '../../nodes/MagniFinance/MagniFinance.node';
import { credentialTestRequest, n8nErrors, runNode, testCredential } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';

let s: NodeSandbox;
beforeAll(async () => {
  s = await startNodeSandbox();
});
afterAll(async () => {
  await s.close();
});

const mug = { Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 1, Type: 'P', TaxValue: 23 };
const withJsonLines = (lines: IDataObject[]): INodeParameters => ({
  resource: 'document',
  operation: 'create',
  clientName: 'Maria Silva',
  linesInput: 'json',
  linesJson: JSON.stringify(lines),
});

async function failureOf(parameters: INodeParameters): Promise<InstanceType<typeof n8nErrors.NodeOperationError>> {
  try {
    await runNode({ credentials: s.credentials, parameters });
  } catch (error) {
    return error as InstanceType<typeof n8nErrors.NodeOperationError>;
  }
  throw new Error('expected the node to fail');
}

describe('a JSON line with a missing or misnamed key says which key, before any request', () => {
  it.each([
    { case: 'TaxValue missing', line: { Code: 'A', Description: 'x', UnitPrice: 1, Quantity: 1, Type: 'P' }, message: 'line 1 has no "TaxValue" key (Tax Rate (%))' },
    { case: 'Type missing', line: { Code: 'A', Description: 'x', UnitPrice: 1, Quantity: 1, TaxValue: 23 }, message: 'line 1 has no "Type" key (Type)' },
    { case: 'TaxRate instead of TaxValue', line: { Code: 'A', Description: 'x', UnitPrice: 1, Quantity: 1, Type: 'P', TaxRate: 23 }, message: 'line 1 has no "TaxValue" key (Tax Rate (%))' },
    { case: 'price instead of UnitPrice', line: { Code: 'A', Description: 'x', price: 1, Quantity: 1, Type: 'P', TaxValue: 23 }, message: 'line 1 has no "UnitPrice" key (Unit Price)' },
  ])('$case', async ({ line, message }) => {
    const error = await failureOf(withJsonLines([mug, line]));
    expect(error).toBeInstanceOf(n8nErrors.NodeOperationError);
    expect(error.message).toBe(`Lines (JSON): ${message.replace('line 1', 'line 2')}`);
  });

  it('the misnamed key itself is named too, with the keys a line takes', async () => {
    const error = await failureOf(withJsonLines([{ ...mug, TaxValue: undefined, TaxRate: 23 }]));
    expect(error.description).toContain('line 1 has the key "TaxRate", which is not a line field');
    expect(error.description).toContain('Line keys: Code, Description, UnitPrice, Quantity, Unit, Type, TaxValue, ProductDiscount, CostCenter');
  });

  it('camelCase keys and the defaulted Unit and ProductDiscount still pass', async () => {
    const { output } = await runNode({
      credentials: s.credentials,
      parameters: withJsonLines([{ code: 'A', description: 'x', unitPrice: 1, quantity: 1, type: 'P', taxValue: 23 }]),
    });
    expect(output[0][0].json.documentId).toEqual(expect.any(Number));
  });
});

describe('Get Partner Access Tokens with a wrong Main API User Password says "password"', () => {
  it('names the password, not only the e-mail and token', async () => {
    const error = await failureOf({ resource: 'partner', operation: 'getAccessTokens', partnerTaxId: '501964843', mainUserPassword: 'not-the-password' });
    expect(error).toBeInstanceOf(n8nErrors.NodeApiError);
    expect(error.message).toMatch(/^MagniFinance refused the Main API User Password/);
    expect(error.description).toContain('check Main API User Password first');
  });
});

describe('the credential test works with an empty Base URL, as the node does', () => {
  it('the credential and the client have the same service root', () => {
    expect(SERVICE_BASE_URL).toBe(DEFAULT_BASE_URL);
  });

  // The request is resolved by n8n's expression engine, not sent: the real service is not called from tests.
  it.each([
    { case: 'empty', baseUrl: '' },
    { case: 'blank', baseUrl: '   ' },
  ])('$case Base URL: the test goes to the service root the node would call', ({ baseUrl }) => {
    expect(credentialTestRequest({ ...s.credentials, baseUrl }).baseURL).toBe(SERVICE_BASE_URL);
  });

  it('a filled Base URL is used as given', async () => {
    expect(credentialTestRequest(s.credentials).baseURL).toBe(s.sandbox.baseUrl);
    expect((await testCredential(s.credentials)).status).toBe('OK');
  });
});

describe("outputs carry the document's currency", () => {
  it.each([
    { case: 'euro document', additionalFields: {}, currency: 'EUR' },
    { case: 'dollar document', additionalFields: { Currency: 'USD', EuroRate: 0.92 }, currency: 'USD' },
  ])('$case: Get and Get Payment Status say $currency', async ({ additionalFields, currency }) => {
    const created = await runNode({
      credentials: s.credentials,
      parameters: { resource: 'document', operation: 'create', clientName: 'Maria Silva', lines: { line: [mug] }, additionalFields },
    });
    const documentId = created.output[0][0].json.documentId as number;
    const got = await runNode({ credentials: s.credentials, parameters: { resource: 'document', operation: 'get', documentId } });
    expect(got.output[0][0].json).toMatchObject({ currency, totalAmount: '12.30' });
    const payment = await runNode({ credentials: s.credentials, parameters: { resource: 'document', operation: 'getPaymentStatus', documentId } });
    expect(payment.output[0][0].json).toMatchObject({ currency, totalAmount: '12.30' });
  });
});

/** Every property of the node description, nested collections included. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
  return properties.flatMap((property) => {
    const nested = (property.options ?? []).flatMap((option) =>
      'values' in option ? allProperties(option.values as INodeProperties[]) : 'type' in option ? allProperties([option as INodeProperties]) : [],
    );
    return [property, ...nested];
  });
}
const properties = allProperties(new MagniFinance().description.properties);

describe('pick lists a builder scans', () => {
  it('tax rates are in numeric order', () => {
    const taxRates = properties.filter((p) => p.name === 'TaxValue' && p.type === 'options');
    expect(taxRates.length).toBeGreaterThan(0);
    for (const field of taxRates) {
      const values = (field.options as INodePropertyOptions[]).map((o) => Number(o.value));
      expect(values).toEqual([...values].sort((a, b) => a - b));
    }
  });

  it('every country code is the same control: the ISO country pick list', () => {
    const countryCodes = properties.filter((p) => /country(code)?$/i.test(p.name) && !/name/i.test(p.name));
    expect(countryCodes.map((p) => p.name).sort()).toEqual(
      expect.arrayContaining(['clientCountryCode', 'countryCode', 'CountryCode', 'companyCountryCode', 'CompanyCountry']),
    );
    const lists = countryCodes.map((p) => ({ name: p.name, type: p.type, count: (p.options ?? []).length }));
    expect(new Set(lists.map((l) => `${l.type}:${l.count}`)).size).toBe(1);
    expect(lists[0].type).toBe('options');
  });
});
