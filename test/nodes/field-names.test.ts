import type { INodeParameters, INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { displayNameOf, SERVICE_NAMES, toServiceNames, type FieldForm } from '../../nodes/MagniFinance/helpers/address-fields';
import { todayIn } from '../../nodes/MagniFinance/helpers/dates';
import { MagniFinance } from '../../nodes/MagniFinance/MagniFinance.node';
import { runNode } from './support/n8n-harness';
import { startNodeSandbox, type NodeSandbox } from './support/sandbox';

/**
 * One convention for the field names of the node's forms (version 2), the service's names mapped
 * in one place (helpers/address-fields.ts), and version-1 workflows (saved with the service's
 * names) still sending the same requests.
 */

const description = new MagniFinance().description;
const today = todayIn('Europe/Lisbon');

/** The fields of a form as a node of `version` shows them (collection options or fixedCollection values). */
function formFields(parameter: string, version: number): INodeProperties[] {
  const shown = description.properties.filter(
    (p) => p.name === parameter && (p.displayOptions?.show?.['@version'] as unknown[] | undefined)?.includes(version),
  );
  expect(shown.length).toBeGreaterThan(0);
  return shown.flatMap((p) =>
    p.type === 'fixedCollection'
      ? (p.options as INodePropertyCollection[]).flatMap((group) => group.values)
      : (p.options as INodeProperties[]),
  );
}

const FORMS: { form: FieldForm; parameters: string[] }[] = [
  { form: 'clientDetails', parameters: ['clientDetails'] },
  { form: 'waybillAddress', parameters: ['loadAddress', 'destinationAddress'] },
  { form: 'partnerFields', parameters: ['partnerFields'] },
];

describe('version 2 forms: one convention, mapped in one place', () => {
  it('the node is versioned 1, 2 and 3 (3: Order Record In the Shop by default, node-versions.test.ts), and a new node gets 3', () => {
    expect(description.version).toEqual([1, 2, 3]);
    expect(description.defaultVersion).toBe(3);
  });

  it.each(FORMS.flatMap(({ form, parameters }) => parameters.map((parameter) => ({ form, parameter }))))(
    '$parameter: camelCase names, each with a service name, display names as the errors tell them',
    ({ form, parameter }) => {
      const fields = formFields(parameter, 2);
      const names: Record<string, string> = SERVICE_NAMES[form];
      expect([...new Set(fields.map((f) => f.name))].sort()).toEqual(Object.keys(names).sort());
      for (const field of fields) {
        expect(field.name).toMatch(/^[a-z][A-Za-z]*$/);
        expect(displayNameOf(form, names[field.name], 2)).toBe(field.displayName);
      }
    },
  );

  it('the same part of an address has the same name and display name in every form', () => {
    const all = FORMS.flatMap(({ parameters }) => parameters.flatMap((parameter) => formFields(parameter, 2)));
    const byPart = (pattern: RegExp) => all.filter((f) => pattern.test(f.name)).map((f) => [f.name, f.displayName]);
    expect(byPart(/ostalCode$/)).toEqual(
      expect.arrayContaining([['postalCode', 'Postal Code'], ['companyPostalCode', 'Company Postal Code']]),
    );
    expect(byPart(/ostalCode$/).every(([, display]) => display.endsWith('Postal Code'))).toBe(true);
    expect(byPart(/(^a|A)ddress$/).every(([, display]) => display.endsWith('Address'))).toBe(true);
    expect(byPart(/(^c|C)ity$/).every(([, display]) => display.endsWith('City'))).toBe(true);
    expect(byPart(/(^c|C)ountryCode$/).every(([, display]) => display.endsWith('Country Code'))).toBe(true);
    expect(all.map((f) => f.name)).not.toEqual(expect.arrayContaining(['PostCode']));
  });

  it('the mapping refuses a version-2 name it does not know, and leaves version-1 values as they are', () => {
    const node = (typeVersion: number) => ({ id: 'n', name: 'MagniFinance', type: 'magniFinance', typeVersion, position: [0, 0] as [number, number], parameters: {} });
    expect(() => toServiceNames('clientDetails', { zipCode: '1100-053' }, node(2))).toThrow('Client Details has a field this node does not know: "zipCode"');
    expect(toServiceNames('waybillAddress', { address: 'Rua A 1', postalCode: '1100-053' }, node(2))).toEqual({ AddressDetail: 'Rua A 1', PostalCode: '1100-053' });
    expect(toServiceNames('clientDetails', { PostCode: '1100-053' }, node(1))).toEqual({ PostCode: '1100-053' });
  });

  it('version 1 forms are kept as saved workflows have them (the service names)', () => {
    expect(formFields('clientDetails', 1).map((f) => f.name)).toContain('PostCode');
    expect(formFields('loadAddress', 1).map((f) => f.name)).toEqual(['AddressDetail', 'City', 'CountryCode', 'PostalCode']);
    expect(formFields('partnerFields', 1).map((f) => f.name)).toContain('CompanyPostCode');
  });
});

describe('version 1 and version 2 workflows send the same request to the sandbox', () => {
  let s: NodeSandbox;
  beforeAll(async () => {
    s = await startNodeSandbox();
  });
  afterAll(async () => {
    await s.close();
  });

  const mugLines = { line: [{ Code: 'MUG', Description: 'Caneca', UnitPrice: 10, Quantity: 1, TaxValue: 23 }] };

  async function sentBody(parameters: INodeParameters, typeVersion: number): Promise<Record<string, unknown>> {
    const { output, requests } = await runNode({ credentials: s.credentials, parameters, typeVersion });
    expect(output[0][0].json.error).toBeUndefined();
    return JSON.parse(requests[0].body ?? '{}') as Record<string, unknown>;
  }

  it('Document > Create: Client Details', async () => {
    const document = { resource: 'document', operation: 'create', clientName: 'Maria Silva', lines: mugLines, waitForDocument: false };
    const v1 = await sentBody(
      { ...document, clientDetails: { Address: 'Rua Augusta 100', City: 'Lisboa', PostCode: '1100-053', CountryName: 'Portugal', Email: 'maria@example.com', LegalName: 'Maria Silva' } },
      1,
    );
    const v2 = await sentBody(
      { ...document, clientDetails: { address: 'Rua Augusta 100', city: 'Lisboa', postalCode: '1100-053', countryName: 'Portugal', email: 'maria@example.com', legalName: 'Maria Silva' } },
      2,
    );
    const client = { Address: 'Rua Augusta 100', City: 'Lisboa', PostCode: '1100-053', CountryName: 'Portugal', Email: 'maria@example.com', LegalName: 'Maria Silva' };
    expect(v1.Client).toEqual({ ...client, Name: 'Maria Silva', NIF: '999999990', CountryCode: 'PT' });
    expect(v2.Client).toEqual(v1.Client);
  });

  it('Waybill > Create: Load and Destination Address', async () => {
    const waybill = { resource: 'waybill', operation: 'create', clientName: 'Loja do Porto', loadDateTime: `${today}T18:30`, lines: mugLines, waitForDocument: false };
    const v1 = await sentBody(
      {
        ...waybill,
        loadAddress: { address: { AddressDetail: 'Rua Augusta 100', City: 'Lisboa', PostalCode: '1100-053', CountryCode: 'PT' } },
        destinationAddress: { address: { AddressDetail: 'Rua de Santa Catarina 1', City: 'Porto', PostalCode: '4000-447' } },
      },
      1,
    );
    const v2 = await sentBody(
      {
        ...waybill,
        loadAddress: { address: { address: 'Rua Augusta 100', city: 'Lisboa', postalCode: '1100-053', countryCode: 'pt' } },
        destinationAddress: { address: { address: 'Rua de Santa Catarina 1', city: 'Porto', postalCode: '4000-447' } },
      },
      2,
    );
    const waybillOf = (body: Record<string, unknown>) => body.Waybill as Record<string, unknown>;
    expect(waybillOf(v1).LoadAddress).toEqual({ AddressDetail: 'Rua Augusta 100', City: 'Lisboa', PostalCode: '1100-053', CountryCode: 'PT' });
    expect(waybillOf(v1).DestinationAddress).toEqual({ AddressDetail: 'Rua de Santa Catarina 1', City: 'Porto', PostalCode: '4000-447', CountryCode: 'PT' });
    expect(waybillOf(v2).LoadAddress).toEqual(waybillOf(v1).LoadAddress);
    expect(waybillOf(v2).DestinationAddress).toEqual(waybillOf(v1).DestinationAddress);
  });

  it('Partner > Add: Partner Fields', async () => {
    const partner = { resource: 'partner', operation: 'add', companyTaxId: '501964843' };
    const v1 = await sentBody(
      { ...partner, partnerFields: { CompanyAddress: 'Rua A 1', CompanyCity: 'Lisboa', CompanyPostCode: '1100-053', CompanyCountry: 'PT', UserName: 'Ana Costa', UserEmail: 'ana@example.com' } },
      1,
    );
    const v2 = await sentBody(
      { ...partner, partnerFields: { companyAddress: 'Rua A 1', companyCity: 'Lisboa', companyPostalCode: '1100-053', companyCountryCode: 'PT', contactName: 'Ana Costa', contactEmail: 'ana@example.com' } },
      2,
    );
    expect(v1).toEqual({
      CompanyTaxId: '501964843',
      CompanyAddress: 'Rua A 1',
      CompanyCity: 'Lisboa',
      CompanyPostCode: '1100-053',
      CompanyCountry: 'PT',
      UserName: 'Ana Costa',
      UserEmail: 'ana@example.com',
    });
    expect(v2).toEqual(v1);
  });

  it('a version-2 node given version-1 names (workflow JSON edited by hand) loses them: n8n drops fields its form lacks', async () => {
    const document = { resource: 'document', operation: 'create', clientName: 'Maria Silva', lines: mugLines, waitForDocument: false };
    const edited = await sentBody({ ...document, clientDetails: { PostCode: '1100-053', city: 'Lisboa' } }, 2);
    expect(edited.Client).toEqual({ City: 'Lisboa', Name: 'Maria Silva', NIF: '999999990', CountryCode: 'PT' });
  });

  it('an invalid address field is named as the form of that version shows it', async () => {
    const waybill = {
      resource: 'waybill',
      operation: 'create',
      clientName: 'Loja do Porto',
      loadDateTime: `${today}T18:30`,
      lines: mugLines,
      destinationAddress: { address: { address: 'Rua B 2', city: 'Porto', postalCode: '4000-447' } },
    };
    const long = 'x'.repeat(101);
    await expect(
      runNode({ credentials: s.credentials, typeVersion: 2, parameters: { ...waybill, loadAddress: { address: { address: long, city: 'Lisboa', postalCode: '1100-053' } } } }),
    ).rejects.toThrow('Load Address > Address (Waybill.LoadAddress.AddressDetail)');
    await expect(
      runNode({
        credentials: s.credentials,
        typeVersion: 1,
        parameters: {
          ...waybill,
          loadAddress: { address: { AddressDetail: long, City: 'Lisboa', PostalCode: '1100-053' } },
          destinationAddress: { address: { AddressDetail: 'Rua B 2', City: 'Porto', PostalCode: '4000-447' } },
        },
      }),
    ).rejects.toThrow('Load Address > Address Detail (Waybill.LoadAddress.AddressDetail)');
  });
});
