import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { InvoiceClient } from '../../../client/schemas/client';
import type { DocumentLine } from '../../../client/schemas/line';
import type { WaybillAddress } from '../../../client/schemas/waybill';
import { toServiceNames } from './address-fields';
import { LINE_LABELS } from './node-errors';

/**
 * Reading node parameters into the service's request shapes. Only shape is handled here; the
 * spec's rules (lengths, NIF, dates, tax exemption) are the client's local validation, which runs
 * before any request and names the failing field.
 */

/** Drops fields left empty in the UI, so an untouched optional field is never sent as "". */
export function withoutBlanks(values: IDataObject): IDataObject {
  const kept: IDataObject = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    kept[key] = typeof value === 'string' ? value.trim() : value;
  }
  return kept;
}

export function readClient(context: IExecuteFunctions, itemIndex: number): InvoiceClient {
  const details = context.getNodeParameter('clientDetails', itemIndex, {}) as IDataObject;
  return {
    ...toServiceNames('clientDetails', withoutBlanks(details), context.getNode()),
    Name: String(context.getNodeParameter('clientName', itemIndex)).trim(),
    NIF: String(context.getNodeParameter('clientTaxId', itemIndex)).replace(/\s+/g, ''),
    CountryCode: String(context.getNodeParameter('clientCountryCode', itemIndex)).trim().toUpperCase(),
  } as InvoiceClient;
}

const LINE_FIELDS = [
  'Code',
  'Description',
  'UnitPrice',
  'Quantity',
  'Unit',
  'Type',
  'TaxValue',
  'ProductDiscount',
  'CostCenter',
] as const;

/** Previous nodes often speak camelCase (`unitPrice`); the service's names are PascalCase. */
const LINE_FIELD_BY_LOWER = new Map<string, string>(LINE_FIELDS.map((f) => [f.toLowerCase(), f]));

const JsonLinesSchema = z.array(z.record(z.string(), z.unknown()), {
  message: 'must be a JSON array of line objects',
});

/**
 * What the form's line fields default to and a JSON line may leave out: unit "UN", no discount.
 * Tax rate and product/service type stay explicit in JSON (the rate is a tax decision, the type
 * goes to the tax authority's SAF-T file): a line without them fails local validation by name.
 */
const JSON_LINE_DEFAULTS = { Unit: 'UN', ProductDiscount: 0 };

/** Keys a JSON line must have itself: the spec's required line fields without a default above. */
const REQUIRED_JSON_LINE_KEYS = LINE_FIELDS.filter((field) => field !== 'CostCenter' && !(field in JSON_LINE_DEFAULTS));

/**
 * A key a JSON line lacks, or has under a name that is not a line field (`TaxRate`, `price`), is
 * named as such: otherwise it reaches local validation as an empty value and the message speaks of
 * the value ("must be a number"), not of the key.
 */
function lineKeyProblems(line: Record<string, unknown>, index: number): string[] {
  const known = new Set<string>(LINE_FIELDS);
  const unknown = Object.keys(line).filter((key) => !known.has(key));
  const missing = REQUIRED_JSON_LINE_KEYS.filter((key) => line[key] === undefined);
  const where = `line ${index + 1}`;
  return [
    ...missing.map((key) => `${where} has no "${key}" key (${LINE_LABELS[key]})`),
    ...unknown.map((key) => `${where} has the key "${key}", which is not a line field`),
  ];
}

function canonicalLine(line: Record<string, unknown>): Record<string, unknown> {
  const canonical: Record<string, unknown> = { ...JSON_LINE_DEFAULTS };
  for (const [key, value] of Object.entries(line)) {
    canonical[LINE_FIELD_BY_LOWER.get(key.toLowerCase()) ?? key] = value;
  }
  return canonical;
}

export function readLines(context: IExecuteFunctions, itemIndex: number): DocumentLine[] {
  const input = context.getNodeParameter('linesInput', itemIndex, 'fields') as string;
  if (input === 'json') {
    const raw = context.getNodeParameter('linesJson', itemIndex, '[]');
    let value: unknown = raw;
    if (typeof raw === 'string') {
      try {
        value = jsonParse(raw);
      } catch {
        throw new NodeOperationError(context.getNode(), 'Lines (JSON) is not valid JSON', {
          itemIndex,
          description: 'Give an array such as [{"Code": "A1", "Description": "Mug", ...}]',
        });
      }
    }
    const parsed = JsonLinesSchema.safeParse(value);
    if (!parsed.success) {
      throw new NodeOperationError(context.getNode(), 'Lines (JSON) must be a JSON array of line objects', {
        itemIndex,
      });
    }
    const lines = parsed.data.map(canonicalLine);
    const problems = lines.flatMap(lineKeyProblems);
    if (problems.length > 0) {
      throw new NodeOperationError(context.getNode(), `Lines (JSON): ${problems[0]}`, {
        itemIndex,
        description: `${problems.join('\n')}\nLine keys: ${LINE_FIELDS.join(', ')} (camelCase such as "unitPrice" is accepted too; Unit and ProductDiscount may be left out).`,
      });
    }
    // Keys only: the client validates every value against the spec before sending.
    return lines as DocumentLine[];
  }
  const lines = context.getNodeParameter('lines.line', itemIndex, []) as IDataObject[];
  return lines.map((line) => withoutBlanks(line) as DocumentLine);
}

export function readAddress(
  context: IExecuteFunctions,
  parameter: string,
  itemIndex: number,
): WaybillAddress {
  const address = context.getNodeParameter(`${parameter}.address`, itemIndex, {}) as IDataObject;
  const kept = toServiceNames('waybillAddress', withoutBlanks(address), context.getNode());
  if (typeof kept.CountryCode === 'string') kept.CountryCode = kept.CountryCode.toUpperCase();
  return kept as WaybillAddress;
}

/** A JSON parameter that may arrive as text or, through an expression, as an object already. */
export function readJsonObject(
  context: IExecuteFunctions,
  parameter: string,
  label: string,
  itemIndex: number,
): unknown {
  const raw = context.getNodeParameter(parameter, itemIndex, {});
  if (typeof raw !== 'string') return raw;
  if (raw.trim() === '') return {};
  try {
    return jsonParse(raw);
  } catch {
    throw new NodeOperationError(context.getNode(), `${label} is not valid JSON`, { itemIndex });
  }
}

/** The partner token option: empty means "use the credential's own token". */
export function readPartnerToken(context: IExecuteFunctions, itemIndex: number): string | undefined {
  const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
  const token = typeof options.partnerToken === 'string' ? options.partnerToken.trim() : '';
  return token === '' ? undefined : token;
}

/** Numbers left at 0 in the UI mean "not given" for these optional fields. */
const ZERO_IS_UNSET = ['Id', 'EuroRate', 'Retention'];

export function readAdditionalFields(context: IExecuteFunctions, itemIndex: number): IDataObject {
  const fields = withoutBlanks(context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject);
  for (const key of ZERO_IS_UNSET) if (fields[key] === 0) delete fields[key];
  if (typeof fields.Currency === 'string') fields.Currency = fields.Currency.toUpperCase();
  return fields;
}
