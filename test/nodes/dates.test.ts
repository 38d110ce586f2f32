import { addDays, dateText, dateTimeText, isBlank, todayIn } from '../../nodes/MagniFinance/helpers/dates';

describe('dateTime fields become the wall-clock text the service wants, never shifted by a zone', () => {
  it.each([
    { input: '2026-03-01', date: '2026-03-01', dateTime: '2026-03-01T00:00:00' },
    { input: '2026-03-01T23:30:00', date: '2026-03-01', dateTime: '2026-03-01T23:30:00' },
    { input: '2026-03-01T23:30', date: '2026-03-01', dateTime: '2026-03-01T23:30:00' },
    { input: '2026-03-01T23:30:15.000+01:00', date: '2026-03-01', dateTime: '2026-03-01T23:30:15' },
    { input: '2026-03-01 08:05:00', date: '2026-03-01', dateTime: '2026-03-01T08:05:00' },
    // Not a date: passed through so the client's validation names the field.
    { input: 'next monday', date: 'next monday', dateTime: 'next monday' },
  ])('$input', ({ input, date, dateTime }) => {
    expect(dateText(input)).toBe(date);
    expect(dateTimeText(input)).toBe(dateTime);
  });
});

describe('today is the calendar day of the workflow time zone', () => {
  it.each([
    { zone: 'Europe/Lisbon', instant: '2026-06-30T23:30:00Z', day: '2026-07-01' },
    { zone: 'Atlantic/Azores', instant: '2026-06-30T23:30:00Z', day: '2026-06-30' },
    { zone: 'UTC', instant: '2026-12-31T23:59:59Z', day: '2026-12-31' },
  ])('$instant in $zone is $day', ({ zone, instant, day }) => {
    expect(todayIn(zone, new Date(instant))).toBe(day);
  });
});

describe('due dates count calendar days', () => {
  it.each([
    { date: '2026-01-31', days: 30, due: '2026-03-02' },
    { date: '2028-02-28', days: 1, due: '2028-02-29' },
    { date: '2026-12-31', days: 1, due: '2027-01-01' },
  ])('$date + $days = $due', ({ date, days, due }) => {
    expect(addDays(date, days)).toBe(due);
  });

  it.each([[''], ['  '], [undefined], [null]])('%p counts as blank', (value) => {
    expect(isBlank(value)).toBe(true);
  });
});
