import { shopToday } from '../../connector/pipeline/issue-date';
import { localDateTime } from '../../law/shop-date';

/**
 * shopToday remembers the shop's day for the rest of a UTC minute (connector/pipeline/issue-date.ts):
 * it must still be Intl's day at every instant, across midnights and the clocks' changes, whatever
 * order the instants come in.
 */
describe("shopToday: the shop's day at every instant, remembered for a minute", () => {
  const intlDay = (at: number, zone: string): string => localDateTime(new Date(at), zone).date;

  it.each([
    // zone, an instant near a change of its clocks (or a midnight)
    ['Europe/Lisbon', Date.UTC(2026, 2, 29, 1, 0, 0)],
    ['Europe/Lisbon', Date.UTC(2026, 9, 25, 1, 0, 0)],
    ['Atlantic/Azores', Date.UTC(2026, 2, 29, 1, 0, 0)],
    ['Atlantic/Madeira', Date.UTC(2026, 11, 31, 23, 59, 0)],
    // A change at midnight itself (clocks skip 00:00-01:00), a half-hour change, quarter-hour offsets.
    ['America/Santiago', Date.UTC(2026, 8, 6, 4, 0, 0)],
    ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 15, 0, 0)],
    ['Asia/Kathmandu', Date.UTC(2026, 5, 1, 18, 15, 0)],
    ['America/St_Johns', Date.UTC(2026, 10, 1, 3, 30, 0)],
    // Samoa skipped 30 December 2011 (a day of no hours).
    ['Pacific/Apia', Date.UTC(2011, 11, 30, 10, 0, 0)],
  ])('%s around %s: every 17 s over six hours, then the same instants shuffled', (zone, around) => {
    const instants: number[] = [];
    for (let at = around - 3 * 3_600_000; at < around + 3 * 3_600_000; at += 17_001) instants.push(at);
    const shuffled = instants.map((at, i) => instants[(i * 7_919) % instants.length] ?? at);
    const wrong = [...instants, ...shuffled].filter((at) => shopToday(at, zone) !== intlDay(at, zone));
    expect(wrong).toEqual([]);
  });

  it('the last milliseconds of a minute that ends a day, and the first of the next, in two zones asked in turn', () => {
    const midnightLisbon = Date.UTC(2026, 0, 15, 0, 0, 0);
    const midnightAzores = Date.UTC(2026, 0, 15, 1, 0, 0);
    for (const at of [midnightLisbon - 60_000, midnightLisbon - 1, midnightAzores - 1, midnightLisbon, midnightAzores, midnightLisbon + 59_999, midnightAzores + 1]) {
      expect(shopToday(at, 'Europe/Lisbon')).toBe(intlDay(at, 'Europe/Lisbon'));
      expect(shopToday(at, 'Atlantic/Azores')).toBe(intlDay(at, 'Atlantic/Azores'));
    }
  });
});
