import { startOfShopDay } from '../../law/shop-date';
import { calendarDay, shopDateTime } from '../../messages/dates';

const at = (iso: string): number => Date.parse(iso);

describe("the shop's calendar day, computed once: midnight in the shop's zone, right on the days the clocks change", () => {
  it.each([
    // An ordinary winter and summer day in Lisbon.
    ['Europe/Lisbon', '2026-01-15T12:00:00Z', '2026-01-15T00:00:00Z'],
    ['Europe/Lisbon', '2026-07-15T12:00:00Z', '2026-07-14T23:00:00Z'],
    // 29 March 2026: the clocks go forward at 01:00 UTC; the day began at 00:00 WET (UTC+0), 23 hours long.
    ['Europe/Lisbon', '2026-03-29T12:00:00Z', '2026-03-29T00:00:00Z'],
    ['Europe/Lisbon', '2026-03-29T00:30:00Z', '2026-03-29T00:00:00Z'],
    // 25 October 2026: the clocks go back at 01:00 UTC; the day began at 00:00 WEST (UTC+1), 25 hours long.
    ['Europe/Lisbon', '2026-10-25T12:00:00Z', '2026-10-24T23:00:00Z'],
    ['Europe/Lisbon', '2026-10-25T23:59:59Z', '2026-10-24T23:00:00Z'],
    // The Azores (UTC-1, -0 in summer) on the same days.
    ['Atlantic/Azores', '2026-03-29T12:00:00Z', '2026-03-29T01:00:00Z'],
    ['Atlantic/Azores', '2026-10-25T12:00:00Z', '2026-10-25T00:00:00Z'],
    // A zone whose clocks skip midnight itself (Chile, 6 September 2026): the day starts at 01:00.
    ['America/Santiago', '2026-09-06T15:00:00Z', '2026-09-06T04:00:00Z'],
  ])('%s at %s: the day began at %s', (zone, now, start) => {
    expect(new Date(startOfShopDay(at(now), zone)).toISOString()).toBe(new Date(start).toISOString());
  });
});

describe('dates as a person reads them, in the shop\'s zone', () => {
  it('writes an instant in the shop\'s zone, not the server\'s: 00:30 in Lisbon in summer is that day', () => {
    expect(shopDateTime('pt', at('2026-07-14T23:30:00Z'), 'Europe/Lisbon')).toBe('15/07/2026, 00:30');
    expect(shopDateTime('en', at('2026-07-14T23:30:00Z'), 'Europe/Lisbon')).toBe('15/07/2026, 00:30');
  });

  it('writes a calendar day as it is (no zone moves a date)', () => {
    expect(calendarDay('pt', '2026-03-10')).toBe('10/03/2026');
    expect(calendarDay('en', '2026-03-10')).toBe('10/03/2026');
    expect(calendarDay('pt', 'soon')).toBe('soon');
  });
});

describe("the not-invoiced list's reasons: the shop's times, not UTC", () => {
  it('an order sold before the go-live cut-off names both times in the shop\'s zone', async () => {
    const { notInvoicedWhy } = await import('../../connector/console/not-invoiced-list');
    const reason = { code: 'before-go-live', soldAt: '2026-07-14T23:30:00.000Z', goLiveAt: '2026-07-15T08:00:00.000Z' } as const;
    expect(notInvoicedWhy('pt', reason, 'Europe/Lisbon')).toBe('vendida a 15/07/2026, 00:30, antes da entrada em funcionamento (15/07/2026, 09:00)');
    expect(notInvoicedWhy('en', reason, 'Europe/Lisbon')).toBe('sold 15/07/2026, 00:30, before the go-live cut-off (15/07/2026, 09:00)');
  });
});
