import { LEDGER_STATES, LEDGER_STATE_RULES, stateRules, type LedgerState } from '../../connector/core/ledger';

const states = [...LEDGER_STATES];
const where = (question: (state: LedgerState) => boolean): LedgerState[] => states.filter(question);

describe('the ledger state table: each state once, every question answered', () => {
  it('has one row per state and no other', () => {
    expect(Object.keys(LEDGER_STATE_RULES).sort()).toEqual([...states].sort());
  });

  it.each([
    ['settled (the sweep passes it by)', (s: LedgerState) => LEDGER_STATE_RULES[s].settled, ['written-back', 'skipped', 'dismissed']],
    ['may expire (retention)', (s: LedgerState) => LEDGER_STATE_RULES[s].mayExpire, ['written-back', 'skipped', 'cancelled']],
    ['dismissable by a person', (s: LedgerState) => LEDGER_STATE_RULES[s].dismissable, ['held', 'mapping-failed', 'failed']],
    ['blocks a credit note', (s: LedgerState) => LEDGER_STATE_RULES[s].blocksCredit, ['duplicate-unknown-id', 'alert-no-number', 'held', 'mapping-failed', 'failed']],
    ['has nothing on the service', (s: LedgerState) => LEDGER_STATE_RULES[s].document === 'none', ['held', 'mapping-failed', 'failed', 'skipped', 'dismissed']],
    ['waits for a person to attach an id', (s: LedgerState) => LEDGER_STATE_RULES[s].waitsFor === 'attach', ['duplicate-unknown-id']],
    ['is a refusal to fix', (s: LedgerState) => LEDGER_STATE_RULES[s].waitsFor === 'fix', ['mapping-failed', 'failed']],
  ])('%s', (_question, question, expected) => {
    expect(where(question).sort()).toEqual([...expected].sort());
  });

  it.each(states)('%s: a state a person may dismiss had nothing issued, and one that resumes at a step has a document', (state) => {
    const rules = LEDGER_STATE_RULES[state];
    if (rules.dismissable) expect(rules.document).toBe('none');
    if (rules.resumeFrom && 'next' in rules.resumeFrom) expect(rules.document).not.toBe('none');
  });

  it.each(states)('%s: a state whose entry may expire never needs a person, and a dismissed decision is kept', (state) => {
    const rules = LEDGER_STATE_RULES[state];
    if (rules.mayExpire) expect([rules.waitsFor, rules.dismissable, rules.blocksCredit]).toEqual([null, false, false]);
  });

  it('resumes where the progress is: finalize after a create, write-back after the number, done where issuing again would duplicate', () => {
    expect(Object.fromEntries(states.map((s) => [s, LEDGER_STATE_RULES[s].resumeFrom]))).toEqual({
      drafting: null,
      draft: null,
      creating: null,
      created: { next: 'finalize' },
      finalized: { next: 'writeback' },
      'written-back': { done: 'already written back' },
      'duplicate-unknown-id': { done: 'duplicate with unknown id (needs a person)' },
      'alert-no-number': { next: 'finalize' },
      held: null,
      'mapping-failed': null,
      failed: null,
      skipped: null,
      cancelled: { next: 'writeback' },
      dismissed: { done: 'handled outside the connector (dismissed by a person)' },
    });
  });

  it('an entry with no state yet (only an error recorded) has nothing issued and is not settled', () => {
    expect(stateRules(undefined)).toMatchObject({ settled: false, document: 'none', dismissable: false, resumeFrom: null });
  });
});
