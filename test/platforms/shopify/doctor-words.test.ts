import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHOPIFY_DOCTOR } from '../../../platforms/shopify/doctor-words';
import { doctorScenarios } from './support/doctor-scenarios';

/**
 * Shopify's doctor speaks from its catalogue (platforms/shopify/doctor-words.ts, issue 25.3): every
 * branch of its checks, in both languages, reads as recorded in fixtures/doctor-words.json. The record
 * was taken from the inline words before they moved; the only changes are the plurals, now counted
 * (countOf): "1 âmbito em falta" where the Portuguese said "faltam" of one scope, "1 status Shopify does
 * not have" where the English said "not Shopify statuses" of one.
 */

const RECORDED = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'doctor-words.json'), 'utf8')) as Record<string, unknown>;

describe("Shopify's doctor words, from its catalogue", () => {
  let said: Awaited<ReturnType<typeof doctorScenarios>>;
  beforeAll(async () => {
    said = await doctorScenarios();
  });

  it.each(Object.keys(RECORDED))('%s', (scenario) => {
    expect(said[scenario]).toEqual(RECORDED[scenario]);
  });

  it.each([
    [1, 'en', 'missing write_orders (granted: read_orders)'],
    [1, 'pt', '1 âmbito em falta: write_orders (concedidos: read_orders)'],
    [2, 'pt', '2 âmbitos em falta: read_orders, write_orders (concedidos: read_orders)'],
  ] as const)('%i missing scope(s), %s: counted', (count, lang, text) => {
    const missing = count === 1 ? ['write_orders'] : ['read_orders', 'write_orders'];
    expect(SHOPIFY_DOCTOR.say(lang, 'scopes-missing', { missing, granted: ['read_orders'] })).toBe(text);
  });

  it.each([
    [['completed'], 'en', '1 status Shopify does not have: completed'],
    [['completed', 'processing'], 'en', '2 statuses Shopify does not have: completed, processing'],
    [['completed'], 'pt', '1 estado que o Shopify não tem: completed'],
    [['completed', 'processing'], 'pt', '2 estados que o Shopify não tem: completed, processing'],
  ] as const)('trigger statuses %j that are not Shopify\'s, %s: counted', (unknown, lang, text) => {
    expect(SHOPIFY_DOCTOR.say(lang, 'statuses-unknown', { unknown: [...unknown] })).toBe(text);
  });

  it('every entry has its own Portuguese', () => {
    const sample = { error: 'e', shop: 's', url: 'u', missing: ['m'], granted: ['g'], topics: ['t'], policy: 'shop', currency: 'USD', unknown: ['x'], statuses: ['paid'], setting: 'credit-note' };
    const same = Object.keys(SHOPIFY_DOCTOR.entries).filter((code) => {
      const entry = SHOPIFY_DOCTOR.entries[code as keyof typeof SHOPIFY_DOCTOR.entries] as unknown as { en: (p: unknown) => string; pt: (p: unknown) => string };
      return entry.en(sample) === entry.pt(sample);
    });
    expect(same).toEqual([]);
  });
});
