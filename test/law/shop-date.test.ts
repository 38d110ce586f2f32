import { localDateTime, shopDay } from '../../law/shop-date';

/** The shop's day of a sale's time: placed in the shop's zone, each zone on its own (the days placed are kept per zone). */
describe('shopDay', () => {
  it.each([
    ['2026-05-01T23:30:00Z', 'Europe/Lisbon', '2026-05-02'],
    ['2026-05-01T23:30:00Z', 'UTC', '2026-05-01'],
    ['2026-05-01T23:30:00Z', 'America/Sao_Paulo', '2026-05-01'],
    ['2026-05-01T23:30:00Z', 'Europe/Lisbon', '2026-05-02'],
    ['2026-03-29T00:59:59Z', 'Europe/Lisbon', '2026-03-29'],
    ['2026-05-01T10:00:00', 'Asia/Tokyo', '2026-05-01'],
  ])('%s in %s is %s', (time, zone, day) => {
    expect(shopDay(time, zone)).toBe(day);
    expect(shopDay(time, zone)).toBe(day);
  });
  it('refuses a time that is not one, every time', () => {
    expect(() => shopDay('2026-13-45T99:00:00Z', 'UTC')).toThrow(RangeError);
    expect(() => shopDay('2026-13-45T99:00:00Z', 'UTC')).toThrow(RangeError);
  });
  it('places an instant as the zone\'s wall clock', () => {
    expect(localDateTime(new Date('2026-10-25T00:30:00Z'), 'Europe/Lisbon')).toEqual({ date: '2026-10-25', time: '01:30:00' });
    expect(localDateTime(new Date('2026-10-25T01:30:00Z'), 'Europe/Lisbon')).toEqual({ date: '2026-10-25', time: '01:30:00' });
  });
});
