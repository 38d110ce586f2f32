import type { SaleTaxNumber } from '../../law/sale';
import type { ShopifyOrder } from './order-query';
import type { NifSource } from '../../connector/config/shopify-tenant';

/**
 * The buyer's tax numbers (NIF or foreign VAT number) from the tenant's sources, in their order
 * (the first is the buyer's), as written there (spaces and a country prefix are the law's to read),
 * each with where it came from ("shopify:b2b-company", "shopify:attribute:nif"). Nothing is checked
 * here: the law applies the same identity rules to every platform. A B2B company's tax registration
 * is a business's number (`businessField`).
 */
export function buyerTaxNumbers(order: ShopifyOrder, sources: readonly NifSource[]): SaleTaxNumber[] {
  const found: SaleTaxNumber[] = [];
  for (const source of sources) {
    const value = valueFrom(order, source)?.trim();
    if (value) found.push({ value, source: describeNifSource(source), businessField: source.from === 'company' });
  }
  return found;
}

function valueFrom(order: ShopifyOrder, source: NifSource): string | undefined {
  switch (source.from) {
    case 'company':
      return order.purchasingEntity?.location?.taxSettings.taxRegistrationId ?? undefined;
    case 'attribute': {
      const wanted = source.key.toLowerCase();
      return order.customAttributes.find((a) => a.key.toLowerCase() === wanted)?.value ?? undefined;
    }
    case 'metafield':
      return order.nifMetafield?.value;
    case 'address-company': {
      const company = order.billingAddress?.company ?? '';
      // Only when the relabelled field holds a number, not a company's name.
      return /^[A-Z]{0,2}[\s.-]*\d[\d\s.-]{7,14}$/i.test(company.trim()) ? company : undefined;
    }
  }
}

/** Where a NIF came from, as the tenants file names the source. */
export function describeNifSource(source: NifSource): string {
  switch (source.from) {
    case 'company':
      return 'shopify:b2b-company';
    case 'attribute':
      return `shopify:attribute:${source.key}`;
    case 'metafield':
      return `shopify:metafield:${source.namespace}.${source.key}`;
    case 'address-company':
      return 'shopify:billing-company';
  }
}

/** The metafield the order query must read for the NIF, when a source names one. */
export function nifMetafieldOf(sources: readonly NifSource[]): { namespace: string; key: string } | undefined {
  const source = sources.find((s) => s.from === 'metafield');
  return source?.from === 'metafield' ? { namespace: source.namespace, key: source.key } : undefined;
}

/**
 * The first NIF an orders/* webhook body shows under the tenant's attribute sources (its
 * `note_attributes`, Shopify's REST name for the order's attributes); undefined when none holds one
 * (a B2B company's or a metafield's number is not in the body: the sweep's reading covers those).
 */
export function nifOfAttributes(attributes: readonly { name: string; value: unknown }[], sources: readonly NifSource[]): string | undefined {
  for (const source of sources) {
    if (source.from !== 'attribute') continue;
    const wanted = source.key.toLowerCase();
    const value = attributes.find((a) => a.name.toLowerCase() === wanted)?.value;
    if ((typeof value === 'string' || typeof value === 'number') && String(value).trim() !== '') return String(value).trim();
  }
  return undefined;
}

/**
 * Whether the tenant reads the buyer's NIF where an orders/* webhook body cannot show it: a VAT
 * app's order metafield (any order), or a B2B company's tax registration (an order the body says
 * was bought for a company: REST's `company`). The company location's ID is the company's record,
 * read live: a tax registration added after the sale is on the order's next read.
 */
export function unseenNifSource(sources: readonly NifSource[], boughtForCompany: boolean): boolean {
  return sources.some((source) => source.from === 'metafield' || (source.from === 'company' && boughtForCompany));
}
