import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ISO_COUNTRY_CODES, ISO_CURRENCY_CODES } from '../../client/schemas/iso-codes';
import { EXEMPTION_CODES } from '../../law/exemption-codes';
import { MagniFinanceApi } from '../../credentials/MagniFinanceApi.credentials';
import { MagniFinanceShopifyApi } from '../../credentials/MagniFinanceShopifyApi.credentials';
import { MagniFinanceWooCommerceApi } from '../../credentials/MagniFinanceWooCommerceApi.credentials';
import * as client from '../../nodes/MagniFinance/actions/client';
import * as document from '../../nodes/MagniFinance/actions/document';
import * as partner from '../../nodes/MagniFinance/actions/partner';
import * as taxId from '../../nodes/MagniFinance/actions/taxId';
import * as waybill from '../../nodes/MagniFinance/actions/waybill';
import { MagniFinance } from '../../nodes/MagniFinance/MagniFinance.node';

const description = new MagniFinance().description;
const nodeDir = join(__dirname, '../../nodes/MagniFinance');
// The n8n package's manifest (packages/n8n-nodes-magnifinance), not the main package's.
const packageJson = JSON.parse(readFileSync(join(__dirname, '..', '..', 'packages', 'n8n-nodes-magnifinance', 'package.json'), 'utf8')) as {
  name: string;
  n8n: { nodes: string[]; credentials: string[] };
  peerDependencies: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dependencies?: Record<string, string>;
};

const modules: Record<string, Record<string, unknown>> = { client, document, partner, taxId, waybill };

function operationsOf(resource: string): string[] {
  const property = description.properties.find(
    (p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
  );
  return ((property?.options ?? []) as INodePropertyOptions[]).map((o) => String(o.value));
}

describe('every operation shown in the UI has its own file with description and execute', () => {
  it.each([
    { resource: 'document', operations: ['cancel', 'create', 'createCreditNoteFromRefund', 'createFromOrder', 'get', 'getPaymentStatus'] },
    { resource: 'waybill', operations: ['create', 'createFromOrder'] },
    { resource: 'partner', operations: ['add', 'getAccessTokens'] },
    { resource: 'client', operations: ['get'] },
    { resource: 'taxId', operations: ['validate'] },
  ])('$resource: $operations', ({ resource, operations }) => {
    expect(operationsOf(resource)).toEqual(operations);
    for (const operation of operations) {
      const module = modules[resource][operation] as { execute?: unknown; description?: unknown };
      expect(typeof module.execute).toBe('function');
      expect(Array.isArray(module.description)).toBe(true);
    }
  });

  it('every field has help text or a self-explaining name', () => {
    const silent = description.properties
      .filter((p) => !['resource', 'operation', 'options', 'additionalFields', 'clientDetails', 'partnerFields', 'lines', 'linesInput'].includes(p.name))
      .filter((p) => !p.description && !p.hint)
      .map((p) => p.name);
    expect(silent).toEqual([]);
  });
});

describe('the node is an installable community node', () => {
  it('is usable as an AI tool and uses the MagniFinance credential', () => {
    expect(description.usableAsTool).toBe(true);
    expect(description.credentials).toEqual([
      { name: new MagniFinanceApi().name, required: true },
      // Only where a WooCommerce order is claimed and written back in the shop (Order Record: In the Shop); never for a Shopify order.
      {
        name: new MagniFinanceWooCommerceApi().name,
        required: true,
        displayOptions: { show: { operation: ['createFromOrder', 'createCreditNoteFromRefund'], resource: ['document', 'waybill'], orderRecord: ['shop'] }, hide: { shopPlatform: ['shopify'] } },
      },
      // A Shopify order's record (its app metafields): the package's own Shopify credential, n8n's belong to n8n-nodes-base.
      {
        name: new MagniFinanceShopifyApi().name,
        required: true,
        displayOptions: { show: { operation: ['createFromOrder', 'createCreditNoteFromRefund'], resource: ['document', 'waybill'], orderRecord: ['shop'], shopPlatform: ['shopify'] } },
      },
    ]);
  });

  it('ships its icon and codex beside the node file', () => {
    // Light and dark variants (n8n-node lint's icon-prefer-themed-variants), both shipped beside the node.
    expect(description.icon).toEqual({ light: 'file:magnifinance.svg', dark: 'file:magnifinance.dark.svg' });
    for (const file of ['magnifinance.svg', 'magnifinance.dark.svg']) expect(existsSync(join(nodeDir, file))).toBe(true);
    const codex = JSON.parse(readFileSync(join(nodeDir, 'MagniFinance.node.json'), 'utf8')) as { node: string };
    expect(codex.node).toBe(`${packageJson.name}.${description.name}`);
  });

  it('package.json lists the built node and credential, with n8n-workflow as a peer', () => {
    expect(packageJson.name).toMatch(/^n8n-nodes-/);
    expect(packageJson.n8n.nodes).toEqual(['dist/nodes/MagniFinance/MagniFinance.node.js']);
    expect(packageJson.n8n.credentials).toEqual([
      'dist/credentials/MagniFinanceApi.credentials.js',
      'dist/credentials/MagniFinanceWooCommerceApi.credentials.js',
      'dist/credentials/MagniFinanceShopifyApi.credentials.js',
    ]);
    // n8n's rules: no runtime dependencies, n8n-workflow as the only peer, as "*" (the scanner
    // refuses a range; the tested majors are 1.x and 2.x: scripts/test-n8n-package.sh).
    expect(packageJson.peerDependencies).toEqual({ 'n8n-workflow': '*' });
    // n8n provides it to the packages it loads: npm must not install a second copy (on Node 20 the
    // latest one's isolated-vm does not even build).
    expect(packageJson.peerDependenciesMeta).toEqual({ 'n8n-workflow': { optional: true } });
    expect(packageJson.dependencies).toBeUndefined();
  });

  it('the credential has the icon too', () => {
    expect(new MagniFinanceApi().icon).toEqual({ light: 'file:magnifinance.svg', dark: 'file:magnifinance.dark.svg' });
    for (const file of ['magnifinance.svg', 'magnifinance.dark.svg']) expect(existsSync(join(__dirname, '..', '..', 'credentials', file))).toBe(true);
  });
});

describe('code fields are pick lists, consistent with the client\'s validation', () => {
  const fields = (): INodeProperties[] => {
    const all: INodeProperties[] = [];
    const walk = (props: unknown[]): void => {
      for (const p of props as Array<INodeProperties & { values?: unknown[] }>) {
        if (p && typeof p === 'object' && 'name' in p && 'type' in p) all.push(p);
        if (Array.isArray(p.options)) walk(p.options as unknown[]);
        if (Array.isArray(p.values)) walk(p.values);
      }
    };
    walk(description.properties);
    return all;
  };
  const pick = (name: string): INodeProperties => {
    const field = fields().find((f) => f.name === name && f.type === 'options');
    if (!field) throw new Error(`no options field ${name}`);
    return field;
  };
  const values = (field: INodeProperties) => (field.options as INodePropertyOptions[]).map((o) => o.value);

  it.each([
    ['clientCountryCode', ISO_COUNTRY_CODES.size, 'PT'],
    ['Currency', ISO_CURRENCY_CODES.size, 'USD'],
    ['TaxValue', 9, 23],
    ['TaxExemptionReasonCode', EXEMPTION_CODES.filter((entry) => entry.use !== 'retired').length, 'M99'],
  ])('%s offers %d options and its default is one of them', (name, count, fallback) => {
    const field = pick(name);
    expect(values(field)).toHaveLength(count);
    expect(field.default).toBe(fallback);
    expect(values(field)).toContain(field.default);
  });

  it('every country and currency offered is one the client accepts, with a readable name', () => {
    expect(values(pick('clientCountryCode')).every((v) => ISO_COUNTRY_CODES.has(v as string))).toBe(true);
    expect(values(pick('Currency')).every((v) => ISO_CURRENCY_CODES.has(v as string))).toBe(true);
    expect(pick('clientCountryCode').options).toContainEqual({ name: 'Portugal (PT)', value: 'PT' });
    expect(pick('Currency').options).toContainEqual({ name: 'US Dollar (USD)', value: 'USD' });
  });

  it("the exemption codes are the mapping's table in force: M44-M46 offered, retired M08 and M26 not, each with its mention", () => {
    const codes = values(pick('TaxExemptionReasonCode'));
    expect(codes).toEqual(expect.arrayContaining(['M05', 'M16', 'M44', 'M45', 'M46', 'M99']));
    expect(codes).not.toContain('M08');
    expect(codes).not.toContain('M26');
    expect(pick('TaxExemptionReasonCode').options).toContainEqual(expect.objectContaining({ name: 'M05 - Isento artigo 14.º do CIVA', value: 'M05' }));
  });

  it('the VAT rates are the Portuguese ones (mainland, Azores, Madeira) and 0% with an exemption code', () => {
    expect([...values(pick('TaxValue'))].sort((a, b) => Number(a) - Number(b))).toEqual([0, 4, 6, 9, 12, 13, 16, 22, 23]);
  });
});
