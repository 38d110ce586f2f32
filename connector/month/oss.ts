import { z } from 'zod';
import { add, formatDecimal, isZero, parseDecimal, type Decimal } from '../../client/money';
import { isEuCountry } from '../../law/countries';
import type { RedisClient } from '../core/redis-connection';
import type { MonthDocument } from './month-document';

/**
 * The sales the One-Stop Shop (OSS, the EU's union scheme) return is about: taxed sales to a buyer
 * in another member state (distance sales of goods, and services to consumers), per country of the
 * buyer, with their base and VAT in euros; credit notes count negative, cancelled documents nothing.
 * Exempt intra-EU supplies to businesses (M16) and exports are not OSS sales and are left out. The
 * OSS return is quarterly: each month's figures are kept in Redis when its pack is made
 * (`<prefix>:month:oss:<tenant>`, one field per month), and the quarter adds the months kept,
 * saying which of them has no pack yet. Whether a sale is declared in the OSS or in Portugal (under
 * the EU-wide 10,000 euro threshold) is the accountant's to say: the rates used are listed.
 */

export interface OssCountry {
  country: string;
  documents: number;
  base: string;
  vat: string;
  /** The VAT rates charged, "21", "23". */
  rates: string[];
}

export interface OssQuarter {
  /** "2026-Q4" */
  quarter: string;
  months: string[];
  /** Months of the quarter, up to this one, with no pack made yet. */
  missing: string[];
  countries: OssCountry[];
}

const OssCountrySchema = z.object({ country: z.string(), documents: z.number().int(), base: z.string(), vat: z.string(), rates: z.array(z.string()) });

export function ossOfMonth(documents: readonly MonthDocument[]): OssCountry[] {
  const found = new Map<string, { documents: number; base: Decimal; vat: Decimal; rates: Set<string> }>();
  for (const doc of documents) {
    const country = doc.customerCountry?.toUpperCase();
    if (doc.status === 'A' || !country || country === 'PT' || !isEuCountry(country)) continue;
    const taxed = doc.parts.filter((p) => !isZero(parseDecimal(p.percent)));
    if (taxed.length === 0) continue;
    const row = found.get(country) ?? { documents: 0, base: { units: 0n, scale: 2 }, vat: { units: 0n, scale: 2 }, rates: new Set<string>() };
    row.documents += 1;
    for (const part of taxed) {
      row.base = add(row.base, part.base);
      row.vat = add(row.vat, part.tax);
      row.rates.add(part.percent);
    }
    found.set(country, row);
  }
  return [...found]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([country, r]) => ({ country, documents: r.documents, base: formatDecimal(r.base, 2), vat: formatDecimal(r.vat, 2), rates: [...r.rates].sort((a, b) => Number(a) - Number(b)) }));
}

export function quarterOf(month: string): { quarter: string; months: string[] } {
  const [year, m] = month.split('-').map(Number);
  const first = Math.floor((m - 1) / 3) * 3 + 1;
  return { quarter: `${year}-Q${(first - 1) / 3 + 1}`, months: [0, 1, 2].map((i) => `${year}-${String(first + i).padStart(2, '0')}`) };
}

export class OssMonths {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private key(tenant: string): string {
    return `${this.prefix}:month:oss:${tenant}`;
  }

  async keep(tenant: string, month: string, countries: readonly OssCountry[]): Promise<void> {
    await this.redis.hset(this.key(tenant), month, JSON.stringify(countries));
  }

  /** The quarter of `month`, its months up to `month` added from what was kept (`month` itself given). */
  async quarter(tenant: string, month: string, current: readonly OssCountry[]): Promise<OssQuarter> {
    const { quarter, months } = quarterOf(month);
    const before = months.filter((m) => m < month);
    const kept = before.length === 0 ? [] : await this.redis.hmget(this.key(tenant), ...before);
    const missing: string[] = [];
    const rows: OssCountry[] = [...current];
    before.forEach((m, i) => {
      const text = kept[i];
      const parsed = text === null ? undefined : z.array(OssCountrySchema).safeParse(jsonOrUndefined(text));
      if (!parsed?.success) missing.push(m);
      else rows.push(...parsed.data);
    });
    const byCountry = new Map<string, { documents: number; base: Decimal; vat: Decimal; rates: Set<string> }>();
    for (const row of rows) {
      const found = byCountry.get(row.country) ?? { documents: 0, base: { units: 0n, scale: 2 }, vat: { units: 0n, scale: 2 }, rates: new Set<string>() };
      found.documents += row.documents;
      found.base = add(found.base, parseDecimal(row.base));
      found.vat = add(found.vat, parseDecimal(row.vat));
      for (const rate of row.rates) found.rates.add(rate);
      byCountry.set(row.country, found);
    }
    return {
      quarter,
      months: months.filter((m) => m <= month),
      missing,
      countries: [...byCountry]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([country, r]) => ({ country, documents: r.documents, base: formatDecimal(r.base, 2), vat: formatDecimal(r.vat, 2), rates: [...r.rates].sort((a, b) => Number(a) - Number(b)) })),
    };
  }
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
