import { add, Decimal, formatDecimal, fromCents, isZero, multiply, parseDecimal, round, shift, toCents } from '../client/money';
import { info, MappingNote, warning } from './mapping-errors';
import { currencyParam } from './mapping-messages';
import type { TotalKind } from './mapping-words';
import { PlannedLine } from './line-plan';

/**
 * Makes the document total (the service's rule: tax once per rate on the sum of the nets) equal the
 * shop's total. WooCommerce rounds tax per line (or per rate on unrounded nets with tax-inclusive
 * prices), so the two can differ by a few cents. The fix, in order of preference:
 *
 * 1. Move the net of the largest line of one or more rates by as few cents as possible, choosing,
 *    among equally small moves, the one whose per-rate tax stays closest to WooCommerce's tax_lines.
 * 2. When no such move reaches the total (with a single rate of 23% some totals cannot be written
 *    as net + round(net × 23%)), issue the nearest reachable total and report the difference: a
 *    rounding cent of a taxable sale is taxable (CIVA art. 16(1)), so it is never put on a 0% line
 *    with a made-up exemption. Only where an accountant opted in (with the code they chose) is one
 *    0% rounding line added instead.
 *
 * Every move and every difference is reported as a note; nothing drifts silently.
 */

export interface RoundingLineSettings {
  code: string;
  description: string;
  unit: string;
}

/** The total a document must reach, for the messages: what it is, the amount and the order's currency. */
export interface TotalTarget {
  kind: TotalKind;
  amount: string;
  currency?: string;
}

export interface BalanceResult {
  lines: PlannedLine[];
  notes: MappingNote[];
  /** True when a 0% rounding line was added (the document then needs an exemption code). */
  addedRoundingLine: boolean;
  /** Shop total minus document total, in cents, when the total could not be reached (0 otherwise). */
  differenceCents: bigint;
}

interface RateGroup {
  rate: Decimal;
  base: bigint; // cents
  lineIndex: number | undefined; // the line that absorbs moves
  wcTax: bigint | undefined;
}

/** A choice of moves for the groups so far: the last group's move, the earlier groups' in `before` (a chain, not a copied list: the search keeps many). */
interface State {
  moved: number;
  /** Cents, summed over the groups (a tie-breaker; a JS number: the search makes many). */
  taxGap: number;
  delta: number;
  before: State | undefined;
}

/** The moves of a complete state, one per group in the groups' order. */
function deltasOf(state: State): number[] {
  const deltas: number[] = [];
  for (let at: State | undefined = state; at?.before !== undefined; at = at.before) deltas.push(at.delta);
  return deltas.reverse();
}

function rateKey(rate: Decimal): string {
  return round(rate, 6).units.toString();
}

function taxCents(base: bigint, rate: Decimal): bigint {
  return round(shift(multiply(fromCents(base), rate), 2), 2).units;
}

function absBig(n: bigint): bigint {
  return n < 0n ? -n : n;
}

function better(a: Pick<State, 'moved' | 'taxGap'>, b: State | undefined): boolean {
  if (!b) return true;
  if (a.moved !== b.moved) return a.moved < b.moved;
  return a.taxGap < b.taxGap;
}

/** The amount the service will compute from these lines' target nets, in cents. */
export function plannedAmountCents(lines: readonly PlannedLine[]): bigint {
  const groups = groupByRate(lines, new Map());
  return groups.reduce((total, g) => total + g.base + taxCents(g.base, g.rate), 0n);
}

function groupByRate(lines: readonly PlannedLine[], wcTaxByRate: ReadonlyMap<string, Decimal>): RateGroup[] {
  const groups = new Map<string, RateGroup>();
  lines.forEach((line, index) => {
    const key = rateKey(line.rate);
    const group = groups.get(key) ?? {
      rate: line.rate,
      base: 0n,
      lineIndex: undefined,
      wcTax: wcTaxByRate.has(key) ? toCents(wcTaxByRate.get(key) as Decimal) : undefined,
    };
    const net = toCents(line.targetNet);
    group.base += net;
    if (line.adjustable && net > 0n) {
      const current = group.lineIndex === undefined ? undefined : toCents(lines[group.lineIndex].targetNet);
      if (current === undefined || net > current) group.lineIndex = index;
    }
    groups.set(key, group);
  });
  return [...groups.values()];
}

/**
 * @param target the shop's total in cents
 * @param wcTaxByRate WooCommerce's tax per rate (tax_lines), to prefer moves that keep the VAT as the shop computed it
 * @param maxDriftCents beyond this the lines do not describe the order: the caller reports an error
 */
export function balanceToTotal(
  lines: readonly PlannedLine[],
  target: bigint,
  wcTaxByRate: ReadonlyMap<string, Decimal>,
  rounding: RoundingLineSettings | undefined,
  total: TotalTarget,
): BalanceResult {
  const totalParams = { totalKind: total.kind, total: total.amount, ...currencyParam(total.currency) };
  const groups = groupByRate(lines, wcTaxByRate);
  const current = groups.reduce((total, g) => total + g.base + taxCents(g.base, g.rate), 0n);
  const diff = target - current;
  if (diff === 0n) return { lines: [...lines], notes: [], addedRoundingLine: false, differenceCents: 0n };

  // Moves of up to |diff| + 3 cents per rate are enough: one cent of net moves the total by 1 or 2.
  const reach = Number(absBig(diff)) + 3;
  // The search runs on JS numbers (cents moved by a few per group, far inside the safe integers): a
  // bigint per candidate was most of what balancing an order allocated.
  let states = new Map<number, State>([[0, { moved: 0, taxGap: 0, delta: 0, before: undefined }]]);
  for (const group of groups) {
    const next = new Map<number, State>();
    const baseTax = taxCents(group.base, group.rate);
    const lineNet = group.lineIndex === undefined ? 0n : toCents(lines[group.lineIndex].targetNet);
    for (let delta = -reach; delta <= reach; delta += 1) {
      if (delta !== 0 && group.lineIndex === undefined) continue;
      if (lineNet + BigInt(delta) < 0n) continue;
      const newTax = taxCents(group.base + BigInt(delta), group.rate);
      const gain = Number(BigInt(delta) + newTax - baseTax);
      const gap = group.wcTax === undefined ? 0 : Number(absBig(newTax - group.wcTax));
      for (const [sum, state] of states) {
        const moved = state.moved + Math.abs(delta);
        const taxGap = state.taxGap + gap;
        const key = sum + gain;
        if (better({ moved, taxGap }, next.get(key))) next.set(key, { moved, taxGap, delta, before: state });
      }
    }
    states = next;
  }

  let chosen = states.get(Number(diff));
  let remainder = 0n;
  if (!chosen) {
    // Unreachable by moving nets. With an opted-in rounding line: as close as possible from below,
    // then the 0% line; without: as close as possible on either side (the smaller difference).
    for (const [sum, state] of states) {
      if (rounding && BigInt(sum) >= diff) continue;
      const rest = diff - BigInt(sum);
      if (chosen === undefined || absBig(rest) < absBig(remainder) || (absBig(rest) === absBig(remainder) && better(state, chosen))) {
        chosen = state;
        remainder = rest;
      }
    }
  }
  if (!chosen) throw new RangeError('No adjustment reaches the total');
  const deltas = deltasOf(chosen);

  const result = lines.map((line) => ({ ...line }));
  const notes: MappingNote[] = [];
  groups.forEach((group, i) => {
    const delta = deltas[i];
    if (delta === 0 || group.lineIndex === undefined) return;
    const line = result[group.lineIndex];
    const before = line.targetNet;
    line.targetNet = add(round(before, 2), fromCents(BigInt(delta)));
    notes.push(
      info('rounding-net-moved', {
        line: line.description,
        rate: formatDecimal(line.rate),
        net: formatDecimal(line.targetNet, 2),
        before: formatDecimal(round(before, 2), 2),
        ...totalParams,
      }),
    );
  });
  if (remainder !== 0n && !rounding) {
    notes.push(warning('total-unreachable', { difference: formatDecimal(fromCents(-remainder), 2), ...totalParams }));
    return { lines: result, notes, addedRoundingLine: false, differenceCents: remainder };
  }
  if (remainder > 0n && rounding) {
    const amount = fromCents(remainder);
    result.push({
      code: rounding.code,
      description: rounding.description,
      type: 'S',
      unit: rounding.unit,
      quantity: parseDecimal(1),
      listNet: amount,
      targetNet: amount,
      rate: parseDecimal(0),
      adjustable: false,
    });
    notes.push(warning('rounding-line-added', { line: rounding.description, amount: formatDecimal(amount, 2), ...totalParams }));
  }
  return { lines: result, notes, addedRoundingLine: remainder > 0n && !isZero(fromCents(remainder)), differenceCents: 0n };
}
